import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';

/** The PostgreSQL the benchmarks fill: BENCH_DATABASE_URL, else DATABASE_URL, else the test one. */
export const SERVER_URL = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:54329/postgres';

/** The URL of another database on the same server. */
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
export async function startServer(opts: { databaseUrl: string; port: number; password: string }): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['apps/server/src/main.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: opts.databaseUrl,
      PORT: String(opts.port),
      HOST: '127.0.0.1',
      PAGEWATCH_ADMIN_PASSWORD: opts.password,
      PAGEWATCH_WEB_DIST: '/nonexistent',
      PAGEWATCH_BUILTIN_AGENT: '',
      LOG_LEVEL: 'warn',
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
