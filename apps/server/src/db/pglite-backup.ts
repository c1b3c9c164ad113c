import { existsSync, readdirSync, rmSync, unlinkSync, chmodSync, renameSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import { createConnection, createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { extractTarGz, writeTarGz } from './backup-tar.ts';
import { folderOwner, lockDataDir } from './data-lock.ts';

/**
 * Backups of the embedded database. Its data folder has one owner (data-lock.ts), so the
 * backup command cannot open the folder while a server runs on it: it asks that server through
 * a unix socket in the folder instead, which only the folder's owner (the operating system user)
 * can connect to. The server copies the database's files while no statement and no transaction
 * runs (PGlite runs one at a time, and the copy holds both of its locks), which is the state a
 * crash would leave: a start on the copy recovers it from its write-ahead log like any start
 * after a crash, with every committed change. The copy is then packed and sent while the server
 * works on.
 *
 * Only PostgreSQL's own files go in: not the lock, the built-in agent's spool, the license key
 * or the secret key file, which is backed up apart from the data it protects.
 */
export const BACKUP_SOCKET = 'pagewatch-backup.sock';
/** Unix socket paths are limited to 107 bytes on Linux (103 on macOS). */
const MAX_SOCKET_PATH = 103;

const TOP_FILES = new Set(['PG_VERSION', 'postgresql.conf', 'postgresql.auto.conf', 'pg_hba.conf', 'pg_ident.conf']);
/** Whether a path of the data folder (relative, `/`-separated) is one of PostgreSQL's files. */
function isDatabaseFile(path: string, dir: boolean): boolean {
  const top = path.split('/')[0]!;
  if (path !== top) return true; // within a folder already taken
  return dir ? top === 'base' || top === 'global' || top.startsWith('pg_') : TOP_FILES.has(top);
}

/** Whether the folder holds a database already. */
export const holdsDatabase = (dataDir: string) => existsSync(join(dataDir, 'PG_VERSION'));

/** Temporary folders of a backup or a restore in progress; left only by a crash. */
const SCRATCH = /^\.(backup|restore)-\d+-\d+$/;
let scratchCount = 0;
const scratchDir = (dataDir: string, what: 'backup' | 'restore') => join(dataDir, `.${what}-${process.pid}-${++scratchCount}`);

async function copyDatabaseFiles(from: string, to: string, under = ''): Promise<void> {
  for (const entry of readdirSync(join(from, under), { withFileTypes: true })) {
    const path = under ? `${under}/${entry.name}` : entry.name;
    if (!(entry.isDirectory() || entry.isFile()) || !isDatabaseFile(path, entry.isDirectory())) continue;
    if (entry.isDirectory()) {
      await mkdir(join(to, path), { recursive: true, mode: 0o700 });
      await copyDatabaseFiles(from, to, path);
    } else {
      await copyFile(join(from, path), join(to, path));
    }
  }
}

/** Packs the database of a folder that nothing writes to (no server, or a consistent copy). */
const packDatabase = (dir: string, out: Writable) => writeTarGz(dir, isDatabaseFile, out);

/** A consistent copy of the running database's files, made between two statements. */
async function snapshot(client: PGlite, dataDir: string): Promise<string> {
  // A checkpoint first writes the changed pages out, so that a start on the copy has little log to replay.
  await client.exec('CHECKPOINT');
  const into = scratchDir(dataDir, 'backup');
  await mkdir(into, { mode: 0o700 });
  try {
    await client._runExclusiveTransaction(() => client._runExclusiveQuery(() => copyDatabaseFiles(dataDir, into)));
    return into;
  } catch (err) {
    rmSync(into, { recursive: true, force: true });
    throw err;
  }
}

/**
 * The server's side: answers each connection to the folder's socket with one backup, a JSON line
 * (`{"ok":true}` or `{"error":"…"}`) and then the gzipped tar. A folder whose path is too long
 * for a socket gets none; the backup command then says to stop the server first.
 */
export async function serveBackups(client: PGlite, dataDir: string, onError: (err: Error) => void): Promise<{ close: () => Promise<void> }> {
  for (const name of readdirSync(dataDir)) if (SCRATCH.test(name)) rmSync(join(dataDir, name), { recursive: true, force: true });
  const path = join(dataDir, BACKUP_SOCKET);
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH) return { close: async () => undefined };
  rmSync(path, { force: true }); // left by a server that did not stop cleanly: the folder is ours now
  const server = createServer((socket) => void answer(socket));
  const answer = async (socket: Socket) => {
    socket.on('error', () => undefined); // the command went away: its backup is simply not finished
    let copy: string | null = null;
    try {
      copy = await snapshot(client, dataDir);
      socket.write(`${JSON.stringify({ ok: true })}\n`);
      await packDatabase(copy, socket);
    } catch (err) {
      onError(err as Error);
      if (!copy) socket.end(`${JSON.stringify({ error: (err as Error).message })}\n`);
      else socket.destroy();
    } finally {
      if (copy) rmSync(copy, { recursive: true, force: true });
    }
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  chmodSync(path, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        try {
          unlinkSync(path);
        } catch {
          // already gone
        }
      }),
  };
}

/**
 * Reads the socket's first line, then streams the rest into `out`; done when `out` has written
 * the last byte. The server closes its side as soon as it has sent everything, usually well
 * before `out` (a file) is written: a close after the end of the stream is the normal end, only
 * a close before it is a backup cut short.
 */
function receive(socket: Socket, out: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    let ended = false;
    socket.once('end', () => (ended = true));
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const nl = head.indexOf(10);
      if (nl < 0) return;
      socket.off('data', onData);
      socket.pause();
      const reply = JSON.parse(head.subarray(0, nl).toString()) as { ok?: true; error?: string };
      if (!reply.ok) return reject(new Error(`the server could not make the backup: ${reply.error}`));
      const rest = head.subarray(nl + 1);
      if (rest.length) out.write(rest);
      socket.pipe(out);
      out.on('finish', () => (ended ? resolve() : reject(new Error('the server stopped before the backup was complete'))));
      out.on('error', reject);
      socket.resume();
    };
    socket.on('data', onData);
    socket.on('error', reject);
    socket.on('close', () => {
      if (!ended) reject(new Error('the server closed the connection before the backup was complete'));
    });
  });
}

/**
 * Writes a backup of the folder's database to `out`: through the server that owns the folder, or
 * (no server running) from the folder itself, which the command then locks while it reads.
 */
export async function backupDataDir(dataDir: string, out: Writable): Promise<'server' | 'folder'> {
  if (!holdsDatabase(dataDir)) throw new Error(`There is no database in ${dataDir} (PAGEWATCH_DATA_DIR) to back up.`);
  const owner = folderOwner(dataDir);
  if (owner) {
    const path = join(dataDir, BACKUP_SOCKET);
    if (!existsSync(path)) {
      throw new Error(
        `The server (PID ${owner.pid}) running on ${dataDir} does not take backups: its folder's path is too long for a socket, or it is an older version. Stop it and run the backup again.`,
      );
    }
    const socket = createConnection(path);
    await receive(socket, out);
    return 'server';
  }
  const unlock = lockDataDir(dataDir);
  try {
    await packDatabase(dataDir, out);
  } finally {
    unlock();
  }
  return 'folder';
}

/**
 * Restores a backup into a folder that holds no database (other files, a key file say, stay).
 * The files are unpacked beside it and started once, which recovers them and proves the backup
 * whole, before they move into the folder; a failed restore leaves the folder as it was.
 */
export async function restoreDataDir(input: Readable, dataDir: string): Promise<void> {
  if (holdsDatabase(dataDir)) {
    throw new Error(`${dataDir} holds a database already. Restore into an empty folder (PAGEWATCH_DATA_DIR), or move that folder away first.`);
  }
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const unlock = lockDataDir(dataDir);
  const into = scratchDir(dataDir, 'restore');
  try {
    await extractTarGz(input, into);
    if (!holdsDatabase(into)) throw new Error('The file is not a backup of the embedded database: it has no PG_VERSION.');
    const check = await PGlite.create(into, { extensions: { pg_trgm } });
    try {
      await check.query('SELECT count(*) FROM drizzle.__drizzle_migrations');
    } finally {
      await check.close();
    }
    for (const name of readdirSync(into)) renameSync(join(into, name), join(dataDir, name));
  } finally {
    rmSync(into, { recursive: true, force: true });
    unlock();
  }
}
