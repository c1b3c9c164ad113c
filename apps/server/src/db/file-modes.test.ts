import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { scratchPostgresDatabase } from '../test/test-app.ts';
import { openDatabase } from './client.ts';

/**
 * What the server writes to disk is its owner's alone, whatever the umask (issue 52): the
 * embedded database's folders 700 and files 600, a PostgreSQL backup 600.
 */
const onPostgres = process.env.PAGEWATCH_TEST_DB === 'postgres';
const scratch = mkdtempSync(join(tmpdir(), 'pw-modes-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const umask = process.umask();
afterEach(() => { process.umask(umask); });

/** Every folder and file under `dir` whose mode is not 700 (folders) or 600 (files). */
function open(dir: string): string[] {
  const wrong: string[] = [];
  const walk = (d: string) => {
    if ((statSync(d).mode & 0o777) !== 0o700) wrong.push(`${d}/ ${(statSync(d).mode & 0o777).toString(8)}`);
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && (statSync(p).mode & 0o777) !== 0o600) wrong.push(`${p} ${(statSync(p).mode & 0o777).toString(8)}`);
    }
  };
  walk(dir);
  return wrong;
}

describe.skipIf(onPostgres)('the embedded database on disk (issue 52)', () => {
  it('keeps its folders 700 and its files 600 under a umask of 000', { timeout: 120_000 }, async () => {
    process.umask(0);
    const dir = join(scratch, 'data');
    const database = await openDatabase({ url: null, dataDir: dir });
    await database.db.execute(sql`CREATE TABLE pw_modes (v text)`);
    await database.db.execute(sql`INSERT INTO pw_modes SELECT repeat('x', 1000) FROM generate_series(1, 1000)`);
    await database.close();
    expect(readdirSync(dir).length).toBeGreaterThan(5);
    expect(open(dir)).toEqual([]);
  });

  it('takes back a folder an older release left open', { timeout: 120_000 }, async () => {
    const dir = join(scratch, 'older');
    await (await openDatabase({ url: null, dataDir: dir })).close();
    const loosen = (d: string) => {
      chmodSync(d, 0o755);
      for (const e of readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) loosen(join(d, e.name));
        else chmodSync(join(d, e.name), 0o666);
      }
    };
    loosen(dir);
    expect(open(dir).length).toBeGreaterThan(100);
    await (await openDatabase({ url: null, dataDir: dir })).close();
    expect(open(dir)).toEqual([]);
  });
});

describe.runIf(onPostgres)('a PostgreSQL backup (issue 52)', () => {
  it('is written 600 under a umask of 000', { timeout: 120_000 }, async () => {
    const db = await scratchPostgresDatabase();
    try {
      const file = join(scratch, 'pg.backup');
      process.umask(0);
      const child = spawn(process.execPath, ['-r', '../../tools/require-node.cjs', 'src/backup-tool.ts', 'backup', file], {
        cwd: fileURLToPath(new URL('../..', import.meta.url)),
        env: { PATH: process.env.PATH!, DATABASE_URL: db.url, PAGEWATCH_SECRET_KEY: Buffer.alloc(32, 7).toString('base64') },
      });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      const code = await new Promise((resolve) => child.on('exit', resolve));
      expect(code, output).toBe(0);
      expect((statSync(file).mode & 0o777).toString(8)).toBe('600');
    } finally {
      await db.drop();
    }
  });
});
