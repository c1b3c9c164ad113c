import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_FILE } from './db/data-lock.ts';
import { scratchPostgresDatabase } from './test/test-app.ts';

/**
 * The server as it is started in production (main.ts): one owner per embedded data folder, and
 * a log that is JSON on every line, the start and a refused start included.
 */
const serverDir = fileURLToPath(new URL('..', import.meta.url));
/** Made for the embedded database only: the PostgreSQL project skips these tests. */
let dir = '';
const ADMIN = 'Main-Admin-Secret-77';
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** Starts main.ts on the folder (or a PostgreSQL database); its output lines as they come, and its exit. */
async function server(databaseUrl?: string) {
  const child = spawn(process.execPath, ['-r', '../../tools/require-node.cjs', 'src/main.ts'], {
    cwd: serverDir,
    env: { PATH: process.env.PATH, PAGEWATCH_DATA_DIR: dir, PORT: String(await freePort()), HOST: '127.0.0.1', PAGEWATCH_ADMIN_PASSWORD: ADMIN, PAGEWATCH_WEB_DIST: '/nonexistent', LOG_LEVEL: 'info', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
  });
  children.push(child);
  const lines: string[] = [];
  let partial = '';
  const waiters: (() => void)[] = [];
  const take = (chunk: Buffer) => {
    const parts = (partial + chunk.toString()).split('\n');
    partial = parts.pop()!;
    lines.push(...parts.filter((l) => l.length));
    for (const w of waiters.splice(0)) w();
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const until = (match: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const hit = lines.find((l) => match.test(l));
        if (hit) return resolve(hit);
        if (child.exitCode !== null) return reject(new Error(`the server exited: ${lines.join('\n')}`));
        waiters.push(check);
      };
      child.on('exit', check);
      check();
    });
  return { child, lines, exited, until };
}

const everyLineJson = (lines: string[]) => {
  for (const line of lines) {
    const entry = JSON.parse(line);
    expect(typeof entry.level, line).toBe('string');
    expect(typeof entry.msg, line).toBe('string');
  }
};

describe.runIf(process.env.PAGEWATCH_TEST_DB !== 'postgres')('the server process', () => {
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'pw-main-'));
  });
  it('says what it runs on, refuses a second server on its data folder, and frees the folder when it stops', async () => {
    const first = await server();
    const started = JSON.parse(await first.until(/listening on/));
    expect(started).toMatchObject({ level: 'info', version: expect.stringMatching(/^\d+\.\d+\.\d+/), database: 'pglite', dataDir: dir });
    expect(started.address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const second = await server();
    expect(await second.exited).toBe(1);
    everyLineJson(second.lines);
    const refused = JSON.parse(second.lines.find((l) => l.includes('start failed'))!);
    expect(refused.level).toBe('fatal');
    expect(refused.msg).toContain(`is in use by another Pagewatch server (PID ${first.child.pid}`);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    everyLineJson(first.lines);
    expect(first.lines.join('\n')).not.toContain(ADMIN);
  });
});

describe.runIf(process.env.PAGEWATCH_TEST_DB === 'postgres')('the server process on PostgreSQL', () => {
  it('says its version, the database kind and the address, and stops cleanly', async () => {
    const scratch = await scratchPostgresDatabase();
    try {
      const run = await server(scratch.url);
      const started = JSON.parse(await run.until(/listening on/));
      expect(started).toMatchObject({ level: 'info', database: 'postgres', dataDir: null, version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
      everyLineJson(run.lines);
      expect(run.lines.join('\n')).not.toContain(ADMIN);
    } finally {
      await scratch.drop();
    }
  });
});
