import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';

/** The PostgreSQL the benchmarks fill: BENCH_DATABASE_URL, else DATABASE_URL, else the test one. */
export const SERVER_URL = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:54329/postgres';

/** Makes the server tests' createTestApp build its databases on that PostgreSQL (benchmarks that run in-process). */
export function testAppsOnBenchPostgres(): void {
  process.env.PAGEWATCH_TEST_DB = 'postgres';
  process.env.DATABASE_URL = SERVER_URL;
}

/** The URL of another database on the same server. */
/** Where a benchmark's server listens, its admin password, and whether its filled database is kept. */
export const BENCH_PORT = 20_000 + Math.floor(Math.random() * 40_000);
export const BENCH_HTTP = `http://127.0.0.1:${BENCH_PORT}`;
export const BENCH_PASSWORD = 'bench-Admin-pass1';
export const BENCH_KEEP = process.env.BENCH_KEEP === '1';

export function databaseUrl(name: string): string {
  const u = new URL(SERVER_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** The real server (`apps/server/src/main.ts`) on the given database; resolves once it answers. */
export async function startServer(opts: { databaseUrl: string; port: number; password: string; webDist?: string; env?: Record<string, string> }): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['apps/server/src/main.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: opts.databaseUrl,
      PORT: String(opts.port),
      HOST: '127.0.0.1',
      PAGEWATCH_ADMIN_PASSWORD: opts.password,
      PAGEWATCH_WEB_DIST: opts.webDist ?? '/nonexistent',
      PAGEWATCH_BUILTIN_AGENT: '',
      LOG_LEVEL: 'warn',
      ...opts.env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${opts.port}/config.json`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('server did not start');
}

/** The p-th percentile of ascending `sorted` values. */
export const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/**
 * Calls on the benchmark's server: JSON requests, sign-in, and an OPERATOR of the locations
 * BENCH1 and BENCH2 (the benchmarks' fill makes them) for the scoped scenarios.
 */
export function benchApi(http: string, dbUrl: string) {
  async function json<T>(path: string, init: RequestInit = {}): Promise<T> {
    const res = await fetch(`${http}${path}`, init);
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  }
  const signIn = async (login: string, password: string) =>
    (await json<{ token: string }>('/api/auth/', { method: 'POST', headers: { authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` } })).token;

  async function operatorToken(admin: string): Promise<string> {
    const login = `bench-op-${new URL(http).port}`;
    const roles = (await json<{ pageRows: { id: number; code: string }[] }>('/api/managed-roles-v/', { headers: { authorization: `Bearer ${admin}` } })).pageRows;
    const locs = await withClient(dbUrl, (c) => c.query<{ id: number }>(`SELECT id FROM locations WHERE code IN ('BENCH1', 'BENCH2')`));
    await json('/api/users', {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        login, email: `${login}@example.com`, passwordHash: 'Passw0rd!', lastName: 'Bench',
        locations: locs.rows.map((l) => ({ id: l.id })), grants: [{ id: roles.find((r) => r.code === 'OPERATOR')!.id }],
      }),
    });
    return signIn(login, 'Passw0rd!');
  }
  return { json, signIn, operatorToken };
}

/**
 * A benchmark's run: its database (made if missing) filled by `fill`, the real server started
 * on it, the admin and an operator signed in; afterwards the server stops and the database is
 * dropped unless BENCH_KEEP=1.
 */
export async function withBenchServer(
  dbName: string,
  fill: (c: pg.Client) => Promise<void>,
  run: (t: { server: ChildProcess; admin: string; operator: string; api: ReturnType<typeof benchApi> }) => Promise<void>,
  opts: { webDist?: string } = {},
): Promise<void> {
  const exists = await withClient(SERVER_URL, async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [dbName])).rowCount === 1);
  if (!exists) await withClient(SERVER_URL, (c) => c.query(`CREATE DATABASE ${dbName}`));
  const server = await startServer({ databaseUrl: databaseUrl(dbName), port: BENCH_PORT, password: BENCH_PASSWORD, webDist: opts.webDist });
  try {
    await withClient(databaseUrl(dbName), fill);
    const api = benchApi(BENCH_HTTP, databaseUrl(dbName));
    const admin = await api.signIn('admin', BENCH_PASSWORD);
    await run({ server, admin, operator: await api.operatorToken(admin), api });
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    if (!BENCH_KEEP) await withClient(SERVER_URL, (c) => c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`));
  }
}

