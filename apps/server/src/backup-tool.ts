import { createReadStream, createWriteStream, existsSync, openSync, readSync, closeSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { holdRestoredOutbox } from './modules/notifications/index.ts';
import { backupDataDir, restoreDataDir } from './db/pglite-backup.ts';
import { dumpPostgres, restorePostgres } from './db/postgres-backup.ts';

/**
 * `npm run backup -- FILE` and `npm run restore -- FILE`, with the server's environment: the
 * PostgreSQL database of DATABASE_URL, else the embedded database in PAGEWATCH_DATA_DIR.
 * README, "Backups", says what they keep and how to use them.
 */
const USAGE = 'usage: npm run backup -- <file>   |   npm run restore -- <file>';
const KEY_REMINDER =
  'The secret key is not in the backup: keep PAGEWATCH_SECRET_KEY, or the key file of the data folder, ' +
  'in a safe place of its own. A restored database needs the same key to read its stored passwords and tokens.';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** What kind of backup a file holds, by its first bytes. */
function kindOf(file: string): 'pglite' | 'postgres' | null {
  const head = Buffer.alloc(5);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, 5, 0);
  } finally {
    closeSync(fd);
  }
  if (head.toString('latin1') === 'PGDMP') return 'postgres';
  return head[0] === 0x1f && head[1] === 0x8b ? 'pglite' : null;
}

/** Reads a gzipped backup to its end: a backup cut short fails here rather than at its restore. */
const verifyGzip = (file: string) => pipeline(createReadStream(file), createGunzip(), new Writable({ write: (_c, _e, done) => done() }));

async function backup(file: string) {
  const folder = dirname(resolve(file));
  if (!existsSync(folder)) fail(`Backup failed: the folder ${folder} does not exist.`);
  const config = loadConfig();
  // Written beside the file and renamed when whole: an interrupted backup never looks like one.
  const partial = `${file}.partial`;
  try {
    if (config.databaseUrl) {
      await dumpPostgres(config.databaseUrl, partial);
    } else {
      const how = await backupDataDir(config.dataDir, createWriteStream(partial, { mode: 0o600 }));
      await verifyGzip(partial);
      console.log(how === 'server' ? `The running server on ${config.dataDir} made the backup.` : `No server runs on ${config.dataDir}: backed up from the folder.`);
    }
    renameSync(partial, file);
  } catch (err) {
    rmSync(partial, { force: true });
    fail(`Backup failed: ${(err as Error).message}`);
  }
  const kind = config.databaseUrl ? 'PostgreSQL database (pg_dump custom format)' : 'embedded database (gzipped tar)';
  console.log(`Backup of the ${kind} written to ${file} (${statSync(file).size} bytes).\n${KEY_REMINDER}`);
}

async function restore(file: string) {
  if (!existsSync(file)) fail(`${file} does not exist.`);
  const config = loadConfig();
  const kind = kindOf(file);
  const want = config.databaseUrl ? 'postgres' : 'pglite';
  if (kind !== want) {
    const what = kind === 'postgres' ? 'a PostgreSQL backup: set DATABASE_URL to an empty database' : kind === 'pglite' ? 'a backup of the embedded database: unset DATABASE_URL and set PAGEWATCH_DATA_DIR to an empty folder' : 'not a Pagewatch backup';
    fail(`Restore refused: ${file} is ${what}.`);
  }
  let held = 0;
  try {
    if (config.databaseUrl) await restorePostgres(config.databaseUrl, file);
    else await restoreDataDir(createReadStream(file), config.dataDir);
    // The backup's queued e-mails and channel messages: the original most likely sent them.
    const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
    try {
      held = await holdRestoredOutbox(database.db);
    } finally {
      await database.close();
    }
  } catch (err) {
    fail(`Restore refused or failed: ${(err as Error).message}`);
  }
  console.log(
    `Restored ${file} into ${config.databaseUrl ? 'the PostgreSQL database' : config.dataDir}. Put the secret key back (PAGEWATCH_SECRET_KEY or the key file) ` +
      'before the server starts.' +
      (held ? ` The ${held} e-mails and channel messages queued in the backup will not be sent (the original server most likely sent them): the event log names each.` : ''),
  );
}

const [command, file] = process.argv.slice(2);
if (!file || (command !== 'backup' && command !== 'restore')) fail(USAGE);
// npm runs scripts in the project's folder; a relative name is the caller's.
const path = resolve(process.env.INIT_CWD ?? '.', file);
await (command === 'backup' ? backup(path) : restore(path));
