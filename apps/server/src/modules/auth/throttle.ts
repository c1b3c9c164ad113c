import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import * as repo from './auth.repository.ts';
import './auth.messages.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * How a kind of attempt is slowed down: `free` attempts in a row pass at once; then each must
 * wait `firstDelayMs`, doubling per attempt up to `maxDelayMs` (a backoff, never a lockout).
 * After `forgetAfterMs` without an attempt the count starts again.
 */
export type ThrottlePolicy = { prefix: string; free: number; firstDelayMs: number; maxDelayMs: number; forgetAfterMs: number };

export const THROTTLE = {
  /** Per login and address: an attacker elsewhere cannot slow the real user down. */
  signIn: { prefix: 'signin', free: 5, firstDelayMs: SECOND, maxDelayMs: 15 * MINUTE, forgetAfterMs: HOUR },
  /**
   * Per account, against many addresses trying one login (counted for logins that do not exist
   * too, so a refusal tells nothing). A browser the user signed in from before is counted on
   * its own instead (signInDevice), so an attack on the login never keeps the owner out there.
   */
  signInAccount: { prefix: 'signin-account', free: 10, firstDelayMs: SECOND, maxDelayMs: 5 * MINUTE, forgetAfterMs: HOUR },
  signInDevice: { prefix: 'signin-device', free: 5, firstDelayMs: SECOND, maxDelayMs: 15 * MINUTE, forgetAfterMs: HOUR },
  /**
   * Per address, against one address trying many logins. 100 failures in a row without a quarter
   * of an hour's pause is far beyond what an office behind one NAT mistypes (a few honest typos
   * a day per person, and every success gives one back); even then it is a backoff of at most
   * five minutes, not a lockout.
   */
  signInAddress: { prefix: 'signin-ip', free: 100, firstDelayMs: SECOND, maxDelayMs: 5 * MINUTE, forgetAfterMs: 15 * MINUTE },
  /** Restore links per login (the mailbox of the user) and per address (the mail server). */
  forgotLogin: { prefix: 'forgot', free: 3, firstDelayMs: MINUTE, maxDelayMs: HOUR, forgetAfterMs: HOUR },
  forgotAddress: { prefix: 'forgot-ip', free: 10, firstDelayMs: MINUTE, maxDelayMs: HOUR, forgetAfterMs: HOUR },
  demoAddress: { prefix: 'demo-ip', free: 5, firstDelayMs: MINUTE, maxDelayMs: HOUR, forgetAfterMs: HOUR },
  /**
   * Test e-mails (a notification's, the SMTP settings'), one count per message, so the console
   * is no relay: five a minute per sender, then a minute's pause, after which the count starts
   * again (someone shaping a message tests it a few times, not thirty).
   */
  testMail: { prefix: 'test-mail', free: 5, firstDelayMs: MINUTE, maxDelayMs: MINUTE, forgetAfterMs: MINUTE },
  /** The whole instance, against many senders at once: thirty a minute, a pause of at most a minute. */
  testMailInstance: { prefix: 'test-mail-all', free: 30, firstDelayMs: MINUTE, maxDelayMs: MINUTE, forgetAfterMs: MINUTE },
} satisfies Record<string, ThrottlePolicy>;

/**
 * How fast mails to an address a caller typed may go (a leaky bucket): `burst` at once, then one
 * every `everyMs`; a mail past that is held back until its turn, never dropped.
 */
export type PacePolicy = { prefix: string; burst: number; everyMs: number };

export const PACE = {
  /** A location's orders to its supplier (issue 52, finding 3): five at once, then six an hour. */
  supplierMail: { prefix: 'supplier-mail', burst: 5, everyMs: 10 * MINUTE },
  /** The whole instance's supplier mails, whichever locations order: thirty at once, then thirty an hour. */
  supplierMailInstance: { prefix: 'supplier-mail-all', burst: 30, everyMs: 2 * MINUTE },
} satisfies Record<string, PacePolicy>;

/**
 * When the next message of `key` may go, at `earliest` or later, and counts it: under the
 * counter's row lock, in the caller's transaction, so every server instance shares the pace.
 * The counter's next_at is the bucket's "theoretical arrival time"; its updated_at the last turn
 * given, so pruning keeps it while mails still wait.
 */
export async function paceTurn(tx: Db, policy: PacePolicy, key: string, earliest: number): Promise<number> {
  const c = await repo.lockCounter(tx, key);
  const due = c.nextAt.getTime();
  const turn = Math.max(earliest, due - (policy.burst - 1) * policy.everyMs);
  await repo.saveCounter(tx, key, { count: c.count + 1, nextAt: new Date(Math.max(due, turn) + policy.everyMs), updatedAt: new Date(turn) });
  return turn;
}

/** Counters idle this long are deleted (the longest forgetAfterMs, with a margin). */
export const THROTTLE_KEEP_MS = 24 * HOUR;

export const throttleKey = (policy: { prefix: string }, ...parts: string[]) => `${policy.prefix}:${parts.map((p) => p.toLowerCase().slice(0, 180)).join('|')}`;

const delayAfter = (p: ThrottlePolicy, count: number) => (count < p.free ? 0 : Math.min(p.firstDelayMs * 2 ** Math.min(count - p.free, 30), p.maxDelayMs));

/**
 * Counts an attempt (`weight` of them at once: a test sent to three is three messages), or
 * refuses it with 429 and Retry-After while its delay runs. Counting and checking happen under
 * the counter's row lock, so N concurrent attempts are let through one by one and only as many
 * as the policy allows pass. `clock`: tests stop or move time.
 */
export async function countAttempt(db: Db, policy: ThrottlePolicy, key: string, messageKey?: string, opts: { clock?: () => number; weight?: number } = {}): Promise<void> {
  const { clock = Date.now, weight = 1 } = opts;
  const wait = await db.transaction(async (tx) => {
    const c = await repo.lockCounter(tx, key);
    const now = clock();
    const count = now - c.updatedAt.getTime() > policy.forgetAfterMs ? 0 : c.count;
    if (count > 0 && c.nextAt.getTime() > now) return c.nextAt.getTime() - now;
    const next = count + weight;
    await repo.saveCounter(tx, key, { count: next, nextAt: new Date(now + delayAfter(policy, next)), updatedAt: new Date(now) });
    return 0;
  });
  if (wait > 0) {
    const seconds = Math.max(1, Math.ceil(wait / SECOND));
    throw new AppError('TOO_MANY_ATTEMPTS', { key: messageKey, params: { seconds }, headers: { 'retry-after': String(seconds) } });
  }
}

/** Counts test messages of a sender, then of the instance (THROTTLE.testMail and testMailInstance). */
export async function countTestMail(db: Db, userId: number, messages: number): Promise<void> {
  await countAttempt(db, THROTTLE.testMail, throttleKey(THROTTLE.testMail, String(userId)), 'auth.tooManyTestMails', { weight: messages });
  await countAttempt(db, THROTTLE.testMailInstance, throttleKey(THROTTLE.testMailInstance), 'auth.tooManyTestMails', { weight: messages });
}
