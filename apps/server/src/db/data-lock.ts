import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The lock file in an embedded data folder: who owns the folder now. */
export const LOCK_FILE = 'pagewatch.lock';

type Owner = { pid: number; startedAt: string };

/** Whether a process with this id runs (EPERM: it runs, as another user). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(path: string): Owner | null {
  try {
    const owner = JSON.parse(readFileSync(path, 'utf8')) as Owner;
    return Number.isInteger(owner.pid) && owner.pid > 0 ? owner : null;
  } catch {
    return null; // gone between the two calls, or not a lock of ours
  }
}

/** The running server that owns the folder now, if any (a stale lock has none). */
export function folderOwner(dataDir: string): Owner | null {
  const owner = readOwner(join(dataDir, LOCK_FILE));
  return owner && running(owner.pid) ? owner : null;
}

/**
 * Makes this process the one owner of an embedded data folder. PGlite has no guard of its own:
 * two servers on one folder would both write its files and corrupt the database. The lock is
 * created exclusively; a lock whose process no longer runs (a crash, a kill -9) is stale and
 * taken over. Another process of ours, this one included, keeps the folder: a second
 * openDatabase in one process is refused the same way. Returns the release, for a clean stop.
 */
export function lockDataDir(dataDir: string): () => void {
  const path = join(dataDir, LOCK_FILE);
  const me: Owner = { pid: process.pid, startedAt: new Date().toISOString() };
  // Written whole under a name of its own, then linked in place: the link fails if a lock is
  // there, so no server ever reads a lock half written.
  const draft = `${path}.${process.pid}`;
  writeFileSync(draft, JSON.stringify(me));
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        linkSync(draft, path);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        const owner = readOwner(path);
        if (owner && running(owner.pid)) {
          throw new Error(
            `The data folder ${dataDir} is in use by another Pagewatch server (PID ${owner.pid}, started ${owner.startedAt}). ` +
              `Stop that server first, or give this one its own folder (PAGEWATCH_DATA_DIR). ` +
              `If no such server runs, remove ${path}.`,
          );
        }
        try {
          unlinkSync(path); // stale: its owner is gone
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
        }
        continue;
      }
      return () => {
        // Only our own lock: a folder taken over after ours went stale is not ours to free.
        const owner = readOwner(path);
        if (owner?.pid === me.pid && owner.startedAt === me.startedAt) unlinkSync(path);
      };
    }
  } finally {
    unlinkSync(draft);
  }
  throw new Error(`Could not take the lock ${path}: other servers keep starting on the same data folder.`);
}
