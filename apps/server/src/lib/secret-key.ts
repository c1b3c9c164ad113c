import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { newSecretKey, parseSecretKey } from './secret-box.ts';
import { StartRefusal } from './start-refusal.ts';

export const SECRET_KEY_FILE = 'secret.key';
const KEY_FORM = '32 bytes in base64 (44 characters) or hex (64 characters)';

/** PAGEWATCH_SECRET_KEY read at start: refused with its name, never echoed (it is the key). */
export function secretKeyFromEnv(text: string | undefined): Buffer | null {
  if (text === undefined || text === '') return null;
  const key = parseSecretKey(text);
  if (!key) throw new StartRefusal(`PAGEWATCH_SECRET_KEY must be ${KEY_FORM}; the value given (${text.trim().length} characters) is not`);
  return key;
}

export type SecretKeySource = { key: Buffer | null; file: string };
export type LoadedSecretKey = { key: Buffer; file: string | null; created: boolean };

/**
 * The key that seals the stored secrets: PAGEWATCH_SECRET_KEY, else the key file. A missing file
 * is made (owner-only, created exclusively: two servers starting at once agree on one key) for a
 * database none of whose secrets is encrypted yet; `sealedWith`, the key ids its encrypted
 * values need, refuses that (a restored folder or database whose key was not put back: a new
 * key would open none of them). A file that others may read is refused, as ssh refuses such a
 * private key.
 */
export function loadSecretKey(source: SecretKeySource, opts: { create: boolean; sealedWith?: string[] } = { create: true }): LoadedSecretKey {
  if (source.key) return { key: source.key, file: null, created: false };
  const { file } = source;
  let created = false;
  if (opts.create && opts.sealedWith?.length && !existsSync(file)) {
    throw new StartRefusal(
      `The secret key file ${file} does not exist, and this database's secrets are encrypted with key id ${opts.sealedWith.join(', ')}: ` +
        'put that key back (the key file, or PAGEWATCH_SECRET_KEY; see the README, "Secrets at rest"); a new key would open none of them',
    );
  }
  if (opts.create) try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(file, `${newSecretKey().toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    created = true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new StartRefusal(`The secret key file ${file} cannot be created: ${(err as Error).message}`);
  }
  else if (!existsSync(file)) throw new StartRefusal(`The secret key file ${file} does not exist: give the current key (PAGEWATCH_SECRET_KEY or PAGEWATCH_SECRET_KEY_FILE)`);
  let text: string;
  try {
    if (process.platform !== 'win32' && (statSync(file).mode & 0o077) !== 0) {
      throw new StartRefusal(`The secret key file ${file} may be read by other users: make it the server's alone (chmod 600 ${file})`);
    }
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (err instanceof StartRefusal) throw err;
    throw new StartRefusal(`The secret key file ${file} cannot be read: ${(err as Error).message}`);
  }
  const key = parseSecretKey(text);
  if (!key) throw new StartRefusal(`The secret key file ${file} must hold ${KEY_FORM}`);
  return { key, file, created };
}

/** Writes `key` to a file only its owner reads (an existing file of that name is replaced). */
export function writeSecretKeyFile(file: string, key: Buffer) {
  writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** Puts a written key file in the place of another at once (rename: never half a file). */
export const replaceSecretKeyFile = (from: string, to: string) => renameSync(from, to);
