import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { rotateSecretKey } from './secret-key-rotation.ts';

/**
 * `npm run rotate-secret-key`: re-encrypts every stored secret with a new key, on the database
 * the server's environment names (DATABASE_URL, or the embedded one in PAGEWATCH_DATA_DIR).
 * Stop every server first; the README's "Secrets at rest" section has the whole procedure.
 */
async function main() {
  const config = loadConfig();
  // Alone: no server may use the old key meanwhile (on PostgreSQL the servers' lock, embedded the folder's).
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, alone: 'rotating the secret key' });
  try {
    const r = await rotateSecretKey(config, database, process.env.PAGEWATCH_NEW_SECRET_KEY);
    const where = r.file ? `the new key is in ${r.file}` : 'set PAGEWATCH_SECRET_KEY to PAGEWATCH_NEW_SECRET_KEY before the next start';
    console.log(`Re-encrypted ${r.rotated} stored secrets: key ${r.oldKeyId} replaced by ${r.newKeyId}; ${where}.`);
  } finally {
    await database.close();
  }
}

await main().catch((err: unknown) => {
  // A refusal or a failure is the operator's to fix: one line, never a stack trace (issue 52);
  // for a failed query the database's own words (its cause: "connect ECONNREFUSED …").
  const cause = (e: unknown): unknown => (e instanceof Error && e.cause ? cause(e.cause) : e);
  const why = cause(err);
  console.error(`rotate-secret-key: ${(why instanceof Error ? why.message : String(why)).split('\n')[0]}`);
  process.exit(1);
});
