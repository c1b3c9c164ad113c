import pg from 'pg';
import { StartRefusal } from '../lib/start-refusal.ts';

/**
 * Who uses a PostgreSQL database, as the data folder's lock (data-lock.ts) says it of the
 * embedded one: every server holds this advisory lock shared, on a connection of its own, for
 * as long as it runs; what must run alone (a secret key rotation) takes it exclusively, or is
 * refused with the number of servers that hold it. PostgreSQL frees a lock with its session, so
 * a server that dies holds nothing. The key is the database's: other databases of the cluster
 * have locks of their own.
 */
const KEY = [0x5057, 1] as const; // 'PW', the servers' lock

/** How long a server waits before it takes its lock again after the connection was lost. */
const RETAKE_MS = 5_000;

type Log = { warn(obj: object, msg: string): void } | null;

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: 'pagewatch', keepAlive: true });
  await client.connect();
  return client;
}

async function tryLock(client: pg.Client, shared: boolean): Promise<boolean> {
  const res = await client.query<{ ok: boolean }>(`SELECT ${shared ? 'pg_try_advisory_lock_shared' : 'pg_try_advisory_lock'}($1, $2) AS ok`, [...KEY]);
  return res.rows[0]!.ok;
}

/** The database's name and how many sessions hold the lock shared (the running servers). */
async function holders(client: pg.Client): Promise<{ database: string; servers: number }> {
  const res = await client.query<{ database: string; servers: number }>(
    `SELECT current_database() AS database, count(l.pid)::int AS servers FROM pg_locks l
      WHERE l.locktype = 'advisory' AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
        AND l.classid = $1 AND l.objid = $2 AND l.objsubid = 2 AND l.mode = 'ShareLock' AND l.granted`,
    [...KEY],
  );
  return res.rows[0]!;
}

/**
 * A server's share of the lock, held until the returned release. A lost connection (a restart
 * of PostgreSQL, a failover) loses the lock with it: it is taken again on a new connection.
 * Refused while something holds it exclusively.
 */
export async function holdServersLock(url: string, log: () => Log): Promise<() => Promise<void>> {
  let client = await connect(url);
  try {
    if (!(await tryLock(client, true))) {
      const { database } = await holders(client);
      throw new StartRefusal(`A secret key rotation runs on the database ${database}: start the server again once it is done`);
    }
  } catch (err) {
    await client.end().catch(() => undefined);
    throw err;
  }
  let released = false;
  let retake: NodeJS.Timeout | null = null;
  const watch = (c: pg.Client) =>
    c.on('error', (err) => {
      if (released) return;
      log()?.warn({ reason: err.message }, 'database: the servers\' lock connection was lost; taking the lock again');
      const again = async () => {
        retake = null;
        if (released) return;
        try {
          const next = await connect(url);
          watch(next);
          if (released || !(await tryLock(next, true))) {
            await next.end();
            if (!released) throw new Error('a secret key rotation holds the lock');
          }
          client = next;
        } catch (e) {
          log()?.warn({ reason: (e as Error).message }, 'database: the servers\' lock could not be taken again; trying again');
          retake = setTimeout(() => void again(), RETAKE_MS).unref();
        }
      };
      retake = setTimeout(() => void again(), RETAKE_MS).unref();
    });
  watch(client);
  return async () => {
    released = true;
    if (retake) clearTimeout(retake);
    await client.end().catch(() => undefined);
  };
}

/**
 * The lock alone, for `what` (e.g. "rotating the secret key"), held until the returned release;
 * refused with one line naming how many servers run on the database.
 */
export async function holdServersLockAlone(url: string, what: string): Promise<() => Promise<void>> {
  const client = await connect(url);
  try {
    // Twice: a server that stopped between the two statements leaves the lock free.
    if (!(await tryLock(client, false)) && !(await tryLock(client, false))) {
      const { database, servers } = await holders(client);
      throw new StartRefusal(
        `The database ${database} is in use by ${servers} Pagewatch server${servers === 1 ? '' : 's'}: stop every one of them before ${what}`,
      );
    }
  } catch (err) {
    await client.end().catch(() => undefined);
    throw err;
  }
  client.on('error', () => undefined); // the session ends, and the lock with it
  return () => client.end().catch(() => undefined);
}
