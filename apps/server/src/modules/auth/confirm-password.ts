import { verify } from '@node-rs/argon2';
import type { Db } from '../../db/client.ts';
import { passwordHashOf, refundCounter } from './auth.repository.ts';
import { countAttempt, THROTTLE, throttleKey } from './throttle.ts';

/**
 * Whether `password` is the signed-in user's own: asked again before a change that redirects
 * mail (issue 52). Counted in the account's sign-in throttle, so it is no way around it.
 */
export async function confirmPassword(db: Db, userId: number, password: string): Promise<boolean> {
  const key = throttleKey(THROTTLE.signInAccount, 'user', String(userId));
  await countAttempt(db, THROTTLE.signInAccount, key, 'auth.accountBackoff');
  const hash = await passwordHashOf(db, userId);
  const ok = !!hash && (await verify(hash, password).catch(() => false));
  if (ok) await refundCounter(db, key);
  return ok;
}
