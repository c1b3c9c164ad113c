import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './client.ts';
import { LOCK_FILE } from './data-lock.ts';

/** One owner per embedded data folder: PGlite files written by two servers would be corrupted. */
/** Made for the embedded database only: the PostgreSQL project skips these tests. */
let dir = '';

describe.runIf(process.env.PAGEWATCH_TEST_DB !== 'postgres')('the data folder lock', () => {
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'pw-lock-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // The first opening migrates the new folder for real: a minute and more on a loaded machine.
  it('refuses a second server on the folder, and lets one start after the first stopped', { timeout: 300_000 }, async () => {
    const first = await openDatabase({ url: null, dataDir: dir });
    const owner = JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'));
    expect(owner.pid).toBe(process.pid);
    expect(Number.isNaN(Date.parse(owner.startedAt))).toBe(false);

    await expect(openDatabase({ url: null, dataDir: dir })).rejects.toThrow(
      new RegExp(`data folder .* is in use by another Pagewatch server \\(PID ${process.pid}, started ${owner.startedAt}\\)`),
    );
    await first.close();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);

    const again = await openDatabase({ url: null, dataDir: dir });
    await again.close();
  });

  it('takes over a lock whose process no longer runs', async () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: Number(gone), startedAt: '2026-01-01T00:00:00.000Z' }));
    const db = await openDatabase({ url: null, dataDir: dir });
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    await db.close();
  });
});
