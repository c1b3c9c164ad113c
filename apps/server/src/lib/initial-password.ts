import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the first start leaves the generated password of `admin`. */
export const INITIAL_PASSWORD_FILE = 'initial-admin-password';

/**
 * Writes the generated first password of `admin` to an owner-only file in the data folder and
 * returns its path: the password reaches the administrator without passing through the log.
 */
export function keepInitialPassword(dataDir: string, password: string): string {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, INITIAL_PASSWORD_FILE);
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return file;
}
