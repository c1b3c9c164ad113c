import type { Db } from '../../db/client.ts';
import { sealedKeyId, type SecretBox } from '../../lib/secret-box.ts';
import { StartRefusal } from '../../lib/start-refusal.ts';
import { replaceSecretValue, rewriteTables, storedSecretValues, type StoredSecretValue } from './secrets.repository.ts';

/** The key ids the database's encrypted secrets need (none: no secret is encrypted yet). */
export const sealedKeyIds = async (db: Db): Promise<string[]> => keyIdsOf(await storedSecretValues(db));

const keyIdsOf = (values: StoredSecretValue[]) => [...new Set(values.map((v) => sealedKeyId(v.value)).filter((id): id is string => id !== null))];

/** The values of other keys than `box`'s, refused with the keys they need (never a value). */
function refuseOtherKeys(values: StoredSecretValue[], box: SecretBox, what: string) {
  const others = keyIdsOf(values).filter((id) => id !== box.keyId);
  if (!others.length) return;
  throw new StartRefusal(
    `${what} (key id ${box.keyId}) is not the key this database's secrets were encrypted with (key id ${others.join(', ')}): ` +
      'give the server that key (PAGEWATCH_SECRET_KEY or PAGEWATCH_SECRET_KEY_FILE; see the README, "Secrets at rest")',
  );
}

/**
 * At every start: checks that the key opens every stored secret, and seals the plain ones (the
 * values stored before this version, issue 43). Idempotent; a wrong key changes nothing.
 */
export async function sealStoredSecrets(db: Db, box: SecretBox): Promise<{ sealed: number }> {
  const values = await storedSecretValues(db);
  refuseOtherKeys(values, box, 'The secret key');
  let sealed = 0;
  const touched = new Set<string>();
  for (const v of values) {
    if (sealedKeyId(v.value) === null) {
      if (await replaceSecretValue(db, v, box.seal(v.value))) {
        sealed++;
        touched.add(v.column.split('.')[0]);
      }
    } else {
      try {
        box.open(v.value);
      } catch {
        throw new StartRefusal(`The stored secret ${v.column} of row ${v.id} does not decrypt with the secret key (key id ${box.keyId}): it was altered`);
      }
    }
  }
  // The clear values stay in the old row versions until the tables are rewritten, and in the
  // write-ahead log that wrote them (issue 52): in the files, and so in every backup taken after.
  // The tables are rewritten; then the log moves to a new segment and two checkpoints let the old
  // ones go, removed rather than kept for reuse with their bytes.
  await rewriteTables(db, touched);
  return { sealed };
}

/**
 * Seals every stored secret anew with `next` (`npm run rotate-secret-key`), in one transaction:
 * all or none. Each value is opened with `current` first; one of another key refuses the whole.
 */
export async function rotateStoredSecrets(db: Db, current: SecretBox, next: SecretBox): Promise<{ rotated: number }> {
  return db.transaction(async (tx) => {
    const values = await storedSecretValues(tx);
    refuseOtherKeys(values, current, 'The current secret key');
    for (const v of values) {
      if (!(await replaceSecretValue(tx, v, next.seal(current.open(v.value))))) throw new Error(`the stored secret ${v.column} of row ${v.id} changed during the rotation`);
    }
    return { rotated: values.length };
  });
}
