import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_FILE } from './db/data-lock.ts';
import { holdServersLockAlone } from './db/servers-lock.ts';
import { INITIAL_PASSWORD_FILE } from './lib/initial-password.ts';
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
async function server(databaseUrl?: string, env: Record<string, string> = {}, script = 'src/main.ts') {
  const child = spawn(process.execPath, ['-r', '../../tools/require-node.cjs', script], {
    cwd: serverDir,
    env: { PATH: process.env.PATH, PAGEWATCH_DATA_DIR: dir, PORT: String(await freePort()), HOST: '127.0.0.1', PAGEWATCH_ADMIN_PASSWORD: ADMIN, PAGEWATCH_WEB_DIST: '/nonexistent', LOG_LEVEL: 'info', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), ...env },
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
  // Each start on a new database migrates it for real: a minute and more on a loaded machine.
  it('says what it runs on, refuses a second server on its data folder, and frees the folder when it stops', { timeout: 300_000 }, async () => {
    // No PAGEWATCH_ADMIN_PASSWORD: the first start makes one, and leaves it in an owner-only
    // file of the data folder, never in the log.
    const first = await server(undefined, { PAGEWATCH_ADMIN_PASSWORD: '' });
    const started = JSON.parse(await first.until(/listening on/));
    expect(started).toMatchObject({ level: 'info', version: expect.stringMatching(/^\d+\.\d+\.\d+/), database: 'pglite', dataDir: dir });
    expect(started.address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const told = JSON.parse(first.lines.find((l) => l.includes('First start'))!);
    expect(told).toMatchObject({ level: 'warn', file: join(dir, INITIAL_PASSWORD_FILE) });
    expect(statSync(told.file).mode & 0o777).toBe(0o600);
    const generated = readFileSync(told.file, 'utf8').trim();
    expect(generated.length).toBeGreaterThanOrEqual(12);
    const signIn = await fetch(`${started.address}/api/auth/`, { method: 'POST', headers: { authorization: `Basic ${Buffer.from(`admin:${generated}`).toString('base64')}` } });
    expect(signIn.status).toBe(200);

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
    expect(first.lines.join('\n')).not.toContain(generated);
  });
});

/** A refused start: one JSON line with the reason, no stack (nothing in the code went wrong). */
async function refused(run: Awaited<ReturnType<typeof server>>, reason: string) {
  expect(await run.exited).toBe(1);
  everyLineJson(run.lines);
  const line = JSON.parse(run.lines.find((l) => l.includes('start failed'))!);
  expect(line).toMatchObject({ level: 'fatal' });
  expect(line.msg).toContain(reason);
  expect(line.err).toBeUndefined();
  expect(run.lines.join('\n')).not.toContain('"stack"');
  expect(run.lines.join('\n')).not.toMatch(/\\n\s+at /);
}

/** Signs in as the admin of the server at `address` and stores an SMTP password (a secret to keep). */
async function storeSmtpPassword(address: string, password: string) {
  const signIn = await fetch(`${address}/api/auth/`, { method: 'POST', headers: { authorization: `Basic ${Buffer.from(`admin:${ADMIN}`).toString('base64')}` } });
  const { token } = (await signIn.json()) as { token: string };
  const saved = await fetch(`${address}/api/settings`, {
    method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify([{ code: 'SMTP_PASSWORD', stringValue: password }]),
  });
  expect(saved.status).toBe(200);
}

describe.runIf(process.env.PAGEWATCH_TEST_DB !== 'postgres')('the secret key of the server process (issue 43)', () => {
  it('is made owner-only at the first start, refused when wrong or malformed, and rotated by npm run rotate-secret-key', async () => {
    const data = mkdtempSync(join(tmpdir(), 'pw-key-'));
    try {
      const env = { PAGEWATCH_DATA_DIR: data };
      const first = await server(undefined, env);
      const address = JSON.parse(await first.until(/listening on/)).address as string;
      const keyFile = join(data, 'secret.key');
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(first.lines.some((l) => l.includes('secret key file created'))).toBe(true);
      await storeSmtpPassword(address, 'Proc-Smtp-Secret-88');
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);

      await refused(await server(undefined, { ...env, PAGEWATCH_SECRET_KEY: randomBytes(32).toString('base64') }), "is not the key this database's secrets were encrypted with");
      const malformed = await server(undefined, { ...env, PAGEWATCH_SECRET_KEY: 'not-a-key-value' });
      await refused(malformed, 'PAGEWATCH_SECRET_KEY must be 32 bytes in base64 (44 characters) or hex (64 characters)');
      expect(malformed.lines.join('\n')).not.toContain('not-a-key-value');

      const oldKey = readFileSync(keyFile, 'utf8');
      const rotation = await server(undefined, env, 'src/rotate-secret-key.ts');
      expect(await rotation.exited).toBe(0);
      expect(rotation.lines.join('\n')).toMatch(/Re-encrypted 1 stored secrets: key \S+ replaced by \S+; the new key is in /);
      expect(readFileSync(keyFile, 'utf8')).not.toBe(oldKey);
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);

      const again = await server(undefined, env);
      await again.until(/listening on/);
      again.child.kill('SIGTERM');
      expect(await again.exited).toBe(0);
      for (const run of [first, again]) expect(run.lines.join('\n')).not.toContain('Proc-Smtp-Secret-88');
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
    // Five processes one after another, most of them starting the embedded database.
  }, 300_000);
});

describe.runIf(process.env.PAGEWATCH_TEST_DB === 'postgres')('the server process on PostgreSQL', () => {
  it('refuses a secret key rotation while servers run on the database, naming how many, and rotates once they are stopped', async () => {
    const scratch = await scratchPostgresDatabase();
    const key = randomBytes(32).toString('base64');
    const newKey = randomBytes(32).toString('base64');
    const rotate = () => server(scratch.url, { PAGEWATCH_SECRET_KEY: key, PAGEWATCH_NEW_SECRET_KEY: newKey }, 'src/rotate-secret-key.ts');
    try {
      const a = await server(scratch.url, { PAGEWATCH_SECRET_KEY: key });
      const address = JSON.parse(await a.until(/listening on/)).address as string;
      const b = await server(scratch.url, { PAGEWATCH_SECRET_KEY: key });
      await b.until(/listening on/);
      await storeSmtpPassword(address, 'Pg-Smtp-Secret-61');
      const database = new URL(scratch.url).pathname.slice(1);

      const busy = await rotate();
      expect(await busy.exited).toBe(1);
      expect(busy.lines).toEqual([`rotate-secret-key: The database ${database} is in use by 2 Pagewatch servers: stop every one of them before rotating the secret key`]);
      b.child.kill('SIGTERM');
      expect(await b.exited).toBe(0);
      const stillOne = await rotate();
      expect(await stillOne.exited).toBe(1);
      expect(stillOne.lines).toEqual([`rotate-secret-key: The database ${database} is in use by 1 Pagewatch server: stop every one of them before rotating the secret key`]);
      a.child.kill('SIGTERM');
      expect(await a.exited).toBe(0);

      // While a rotation holds the database (here its lock, taken as the command takes it), a server does not start.
      const release = await holdServersLockAlone(scratch.url, 'rotating the secret key');
      await refused(await server(scratch.url, { PAGEWATCH_SECRET_KEY: key }), `A secret key rotation runs on the database ${database}`);
      await release();

      // The refusals changed nothing: the current key still opens the one stored secret.
      const rotation = await rotate();
      expect(await rotation.exited).toBe(0);
      expect(rotation.lines.join('\n')).toMatch(/Re-encrypted 1 stored secrets: key \S+ replaced by \S+; set PAGEWATCH_SECRET_KEY to PAGEWATCH_NEW_SECRET_KEY/);
      const again = await server(scratch.url, { PAGEWATCH_SECRET_KEY: newKey });
      await again.until(/listening on/);
      again.child.kill('SIGTERM');
      expect(await again.exited).toBe(0);
    } finally {
      await scratch.drop();
    }
    // Six processes, four of them servers, on a machine that may be loaded.
  }, 300_000);

  it('says its version, the database kind and the address, and stops cleanly', { timeout: 300_000 }, async () => {
    const scratch = await scratchPostgresDatabase();
    try {
      // The key in the environment: no key file in the working folder.
      const run = await server(scratch.url, { PAGEWATCH_SECRET_KEY: randomBytes(32).toString('hex') });
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
