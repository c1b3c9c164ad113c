import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, closeSync, existsSync, openSync, readdirSync, rmSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import pg from 'pg';

/**
 * Backups of a PostgreSQL database with its own tools: `pg_dump --format=custom` reads one
 * consistent snapshot while the servers keep writing, and `pg_restore` loads it.
 */

/** The newest `pg_dump` or `pg_restore` found on PATH or in the Debian packages' folders. */
function findTool(name: 'pg_dump' | 'pg_restore'): string {
  const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) for (const v of readdirSync(debian)) dirs.push(join(debian, v, 'bin'));
  let best: { path: string; major: number } | null = null;
  for (const dir of dirs) {
    const path = join(dir, name);
    if (!existsSync(path)) continue;
    const major = Number(/\(PostgreSQL\)\s+(\d+)/.exec(spawnSync(path, ['--version']).stdout?.toString().trim() ?? '')?.[1] ?? 0);
    // A newer pg_dump reads an older server; an older one refuses a newer server.
    if (!best || major > best.major) best = { path, major };
  }
  if (!best) throw new Error(`${name} was not found: install the PostgreSQL client tools (the server's version or newer) and put them on PATH.`);
  return best.path;
}

/** The connection string without its password, which goes to the tools in PGPASSWORD instead of their command line. */
function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { dbname: u.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

function run(tool: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env, stdio: ['ignore', 'inherit', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${tool} failed (exit ${code}): ${stderr.trim()}`))));
  });
}

export async function dumpPostgres(url: string, file: string): Promise<void> {
  const { dbname, env } = connection(url);
  // The dump holds the stored secrets (sealed) and every user's data: created 600 for pg_dump to
  // fill, whatever the umask (issue 52).
  rmSync(file, { force: true });
  closeSync(openSync(file, 'wx', 0o600));
  chmodSync(file, 0o600);
  await run(findTool('pg_dump'), ['--format=custom', `--file=${file}`, `--dbname=${dbname}`], env);
}

/** How many tables, views and sequences the database has outside PostgreSQL's own schemas. */
async function relations(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const res = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
        WHERE s.nspname NOT IN ('pg_catalog', 'information_schema') AND s.nspname NOT LIKE 'pg\\_toast%' AND s.nspname NOT LIKE 'pg\\_temp%'
          AND c.relkind IN ('r', 'p', 'v', 'm', 'S')`,
    );
    return res.rows[0]!.n;
  } finally {
    await client.end();
  }
}

/**
 * Restores a custom-format dump into an empty database, in one transaction: a failed restore
 * leaves the database empty. Ownership and grants are left to the role that restores.
 */
export async function restorePostgres(url: string, file: string): Promise<void> {
  const { dbname, env } = connection(url);
  const database = new URL(url).pathname.slice(1);
  if ((await relations(url)) > 0) {
    throw new Error(`The database ${database} is not empty. Restore into a new, empty database (createdb), or drop this one first.`);
  }
  await run(findTool('pg_restore'), ['--exit-on-error', '--single-transaction', '--no-owner', '--no-privileges', `--dbname=${dbname}`, file], env);
}
