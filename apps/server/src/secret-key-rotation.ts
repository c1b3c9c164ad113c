import { rmSync } from 'node:fs';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { newSecretKey, SecretBox } from './lib/secret-box.ts';
import { loadSecretKey, replaceSecretKeyFile, secretKeyFromEnv, writeSecretKeyFile } from './lib/secret-key.ts';
import { StartRefusal } from './lib/start-refusal.ts';
import { rotateStoredSecrets } from './modules/secrets/secrets.service.ts';

export type Rotation = { rotated: number; oldKeyId: string; newKeyId: string; file: string | null };

/**
 * Re-encrypts every stored secret with a new key (`npm run rotate-secret-key`, issue 43). The
 * current key is the server's (PAGEWATCH_SECRET_KEY or the key file); the new one is
 * PAGEWATCH_NEW_SECRET_KEY or made here. With a key file, the new key is written beside it
 * first (`<file>.new`), the secrets are re-encrypted in one transaction, and only then does the
 * new file replace the old: a failure at any step leaves a key that opens what is stored.
 * With the key in the environment the operator sets the new key there himself, so he gives it.
 */
export async function rotateSecretKey(config: Config, database: Database, newKeyText: string | undefined): Promise<Rotation> {
  const current = loadSecretKey({ key: config.secretKey, file: config.secretKeyFile }, { create: false });
  const given = newKeyText ? secretKeyFromEnv(newKeyText) : null;
  if (!current.file && !given) {
    throw new StartRefusal('The current key is PAGEWATCH_SECRET_KEY: give the new one as PAGEWATCH_NEW_SECRET_KEY (32 bytes in base64 or hex, e.g. `openssl rand -base64 32`) and set it as PAGEWATCH_SECRET_KEY afterwards');
  }
  const oldBox = new SecretBox(current.key);
  const nextKey = given ?? newSecretKey();
  const newBox = new SecretBox(nextKey);
  if (newBox.keyId === oldBox.keyId) throw new StartRefusal('The new secret key is the current one');
  const staged = current.file ? `${current.file}.new` : null;
  if (staged) writeSecretKeyFile(staged, nextKey);
  try {
    const { rotated } = await rotateStoredSecrets(database.db, oldBox, newBox);
    if (staged) replaceSecretKeyFile(staged, current.file!);
    return { rotated, oldKeyId: oldBox.keyId, newKeyId: newBox.keyId, file: current.file };
  } catch (err) {
    if (staged) rmSync(staged, { force: true });
    throw err;
  }
}
