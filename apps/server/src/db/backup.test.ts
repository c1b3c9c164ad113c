import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { Writable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { fingerprint, seedOperatorData } from '../test/operator-data.ts';
import { sqlRows } from '../test/sql-rows.ts';
import { ADMIN_PASSWORD, bearer, scratchPostgresDatabase, signIn } from '../test/test-app.ts';
import { createServer as createHttpServer } from 'node:http';
import { enqueueChannelMessage } from '../modules/notifications/index.ts';
import { mailbox, smtpSettingsFor } from '../test/mailbox.ts';
import { openDatabase, type Database } from './client.ts';
import { LOCK_FILE } from './data-lock.ts';
import { BACKUP_SOCKET, backupDataDir } from './pglite-backup.ts';

/**
 * `npm run backup` and `npm run restore` as an operator runs them (the command in a process of
 * its own), on the database of the project: the embedded one with the server running on its
 * folder, or PostgreSQL.
 */
const serverDir = fileURLToPath(new URL('../..', import.meta.url));
const onPostgres = process.env.PAGEWATCH_TEST_DB === 'postgres';
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});
const scratch = mkdtempSync(join(tmpdir(), 'pw-backup-'));
cleanups.push(async () => rmSync(scratch, { recursive: true, force: true }));

/** A place for a database: a new data folder, or a new PostgreSQL database; the environment that points the commands at it. */
async function place(name: string): Promise<{ env: Record<string, string>; open: () => Promise<Database> }> {
  if (onPostgres) {
    const db = await scratchPostgresDatabase();
    cleanups.push(db.drop);
    return { env: { DATABASE_URL: db.url }, open: () => openDatabase({ url: db.url, dataDir: '' }) };
  }
  const dir = join(scratch, name);
  return { env: { PAGEWATCH_DATA_DIR: dir }, open: () => openDatabase({ url: null, dataDir: dir }) };
}

function command(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['-r', '../../tools/require-node.cjs', 'src/backup-tool.ts', ...args], { cwd: serverDir, env: { PATH: process.env.PATH!, ...env } });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
}

/** The stored secrets' key of every server here, given so that no key file lands in the working folder. */
const TEST_KEY = Buffer.alloc(32, 7);

const builtOn = (database: Database) =>
  buildApp({ ...loadConfig({}), secretKey: TEST_KEY, adminPassword: ADMIN_PASSWORD, webDist: '/nonexistent', licenseIssuerKey: '/nonexistent/license-issuer.pem' }, database, { logger: false });
const appOn = async (database: Database) => (await builtOn(database)).app;

/** A folder (or database) with a running server on it and the operator's data, and what it holds. */
async function seededSource(name: string) {
  const source = await place(name);
  const database = await source.open();
  const app = await appOn(database);
  await seedOperatorData(app, database.db);
  return { source, database, app, before: await fingerprint(database.db) };
}

async function devicesList(app: Awaited<ReturnType<typeof appOn>>) {
  const res = await app.inject({ url: '/api/devices/page?page=100,1', headers: bearer(await signIn(app)) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().pageRows as Record<string, unknown>[];
}

describe(`backup and restore (${onPostgres ? 'PostgreSQL' : 'embedded database'})`, () => {
  it('backs up a running server while it writes, and a server on the restored copy has every device, reading, user and setting', { timeout: 300_000 }, async () => {
    const { source, database, app, before } = await seededSource('source');
    const devices = await devicesList(app);
    expect(devices).toHaveLength(3);

    // Writes go on during the backup, two rows a transaction: the copy holds whole transactions
    // only. They come a millisecond apart, as requests would: PGlite answers without any I/O, so
    // a loop of its statements alone would keep the event loop, and the backup's socket, waiting.
    await database.db.execute(sql`CREATE TABLE backup_probe (n int NOT NULL)`);
    let written = 0;
    let stop = false;
    const writing = (async () => {
      while (!stop) {
        await database.db.transaction(async (tx) => {
          await tx.execute(sql`INSERT INTO backup_probe VALUES (${written})`);
          await tx.execute(sql`INSERT INTO backup_probe VALUES (${written})`);
        });
        written++;
        await new Promise((r) => setTimeout(r, 1));
      }
    })();
    while (written < 5) await new Promise((r) => setTimeout(r, 1));
    const committedBefore = written;
    const file = join(scratch, 'pagewatch.backup');
    // Files of ours in the folder (a key file, say) stay out of the backup: it holds the database only.
    if (!onPostgres) writeFileSync(join(source.env.PAGEWATCH_DATA_DIR!, 'secret.key'), 'not for backups');
    const backup = await command(['backup', file], source.env);
    stop = true;
    await writing;
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toContain('The secret key is not in the backup');
    if (!onPostgres) expect(backup.output).toContain('The running server on');
    await app.close();
    await database.close();

    const target = await place('target');
    const restore = await command(['restore', file], target.env);
    expect(restore.code, restore.output).toBe(0);
    if (!onPostgres) {
      const files = readdirSync(target.env.PAGEWATCH_DATA_DIR!);
      expect(files).toContain('PG_VERSION');
      expect(files.filter((f) => !/^(PG_VERSION|base|global|pg_[\w.]+|postgresql(\.auto)?\.conf)$/.test(f))).toEqual([]);
    }
    const restored = await target.open();
    cleanups.push(() => restored.close());
    expect(restored.migrations.applied).toEqual([]);
    expect(await fingerprint(restored.db)).toEqual(before);
    const probe = await sqlRows<{ n: number; copies: number }>(restored.db, sql`SELECT n, count(*)::int AS copies FROM backup_probe GROUP BY n ORDER BY n`);
    expect(probe.length).toBeGreaterThanOrEqual(committedBefore);
    expect(probe.every((r, i) => r.n === i && r.copies === 2)).toBe(true);
    const restoredApp = await appOn(restored);
    cleanups.push(() => restoredApp.close());
    expect(await devicesList(restoredApp)).toEqual(devices);

    const again = await command(['restore', file], target.env);
    expect(again.code).toBe(1);
    expect(again.output).toMatch(onPostgres ? /The database pw_test_\w+ is not empty/ : /holds a database already/);
  });
});

describe(`a restored copy's outbox (${onPostgres ? 'PostgreSQL' : 'embedded database'})`, () => {
  it('does not send the e-mails and webhooks queued in the backup, names each in the event log, and sends what it queues itself', { timeout: 180_000 }, async () => {
    const box = await mailbox();
    const hits: string[] = [];
    const hook = createHttpServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        hits.push(body);
        res.end('ok');
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    cleanups.push(async () => {
      await box.close();
      await new Promise((r) => hook.close(r));
    });
    const hookUrl = `http://127.0.0.1:${(hook.address() as { port: number }).port}/hook`;

    // The original: an e-mail and a webhook message queued when the backup is taken, one e-mail already sent.
    const source = await place('outbox-source');
    const database = await source.open();
    const app = await appOn(database);
    await smtpSettingsFor(database.db, box.port);
    const [channel] = await sqlRows<{ id: number }>(database.db, sql`
      INSERT INTO notification_channels (kind, name, target, allow_internal) VALUES ('WEBHOOK', 'ops hook', ${hookUrl}, true) RETURNING id`);
    await database.db.execute(sql`INSERT INTO notification_messages (message_id, to_email, subject, html, sent_at) VALUES
      ('<sent-1@pagewatch>', 'sent@example.com', 'Sent before the backup', '<p>sent</p>', now())`);
    await database.db.execute(sql`INSERT INTO notification_messages (message_id, to_email, subject, html) VALUES
      ('<queued-1@pagewatch>', 'supplier@example.com', 'Order of toner for BK1', '<p>order</p>')`);
    expect(await enqueueChannelMessage(database.db, channel!.id, { type: 'TEST', subject: 'Toner low on BK1', text: 'queued' })).toBe(true);
    const file = join(scratch, 'outbox.backup');
    const backup = await command(['backup', file], source.env);
    expect(backup.code, backup.output).toBe(0);
    await app.close();
    await database.close();

    const target = await place('outbox-target');
    const restore = await command(['restore', file], target.env);
    expect(restore.code, restore.output).toBe(0);
    const restored = await target.open();
    cleanups.push(() => restored.close());
    const built = await builtOn(restored);
    cleanups.push(() => built.app.close());
    const { sender } = built.ctx.notifier;
    await sender.recover();
    await sender.sendDue();
    expect(box.received).toEqual([]);
    expect(hits).toEqual([]);
    expect(restore.output).toContain('The 2 e-mails and channel messages queued in the backup will not be sent');
    const held = await sqlRows<{ subject: string; lastError: string }>(restored.db, sql`
      SELECT subject, last_error AS "lastError" FROM notification_messages WHERE failed_at IS NOT NULL ORDER BY id`);
    expect(held).toEqual([
      { subject: 'Order of toner for BK1', lastError: 'not sent: restored from a backup' },
      { subject: 'Toner low on BK1', lastError: 'not sent: restored from a backup' },
    ]);
    const logged = await sqlRows<{ code: string; level: string; message: string }>(restored.db, sql`
      SELECT message_code AS code, log_level AS level, message FROM event_logs WHERE message_code LIKE '%.notSentRestored' ORDER BY id`);
    expect(logged).toEqual([
      { code: 'notification.notSentRestored', level: 'W', message: 'E-mail "Order of toner for BK1" to supplier@example.com not sent: it was queued in the backup this database was restored from, and the original server most likely sent it' },
      { code: 'channel.notSentRestored', level: 'W', message: expect.stringMatching(/^Message "Toner low on BK1" to .+ not delivered: it was queued in the backup this database was restored from/) },
    ]);

    // What the copy queues from now on goes out as usual.
    await restored.db.execute(sql`INSERT INTO notification_messages (message_id, to_email, subject, html) VALUES
      ('<after-1@pagewatch>', 'ops@example.com', 'Queued after the restore', '<p>new</p>')`);
    expect(await enqueueChannelMessage(restored.db, channel!.id, { type: 'TEST', subject: 'After the restore', text: 'new' })).toBe(true);
    const sent = await sender.sendDue();
    expect(sent.sent).toBe(2);
    expect(box.received).toHaveLength(1);
    expect(box.received[0]).toContain('Queued after the restore');
    expect(hits).toHaveLength(1);
    expect(hits[0]).toContain('After the restore');
  });
});

/** Threads that keep every core busy until they are stopped, as another program's work would. */
function cpuHog(threads: number): () => Promise<void> {
  const workers = Array.from({ length: threads }, () => new Worker('for (;;) {}', { eval: true }));
  return async () => {
    await Promise.all(workers.map((w) => w.terminate()));
  };
}

describe.runIf(!onPostgres)('the embedded database\'s backup under load', () => {
  it('is whole into a disk that lags and twice in a row while every core is busy, and each copy restores', { timeout: 600_000 }, async () => {
    const { source, database, app, before } = await seededSource('loaded');
    const files: string[] = [];
    try {
      // A destination slower than the socket (a loaded or network disk): the server is done
      // sending well before the last bytes are written.
      const lagging = join(scratch, 'lagging.backup');
      const disk = createWriteStream(lagging);
      const slow = new Writable({
        write: (chunk: Buffer, _e, done) => void setTimeout(() => disk.write(chunk, done), 20),
        final: (done) => disk.end(done),
      });
      await backupDataDir(source.env.PAGEWATCH_DATA_DIR!, slow);
      files.push(lagging);
      const stopHog = cpuHog(2);
      try {
        // The lagging disk fails the old code every time; the busy runs, at run 5 of 5 at worst:
        // two keep the suite's time (each backup and restore starts a process).
        for (let run = 1; run <= 2; run++) {
          const file = join(scratch, `loaded-${run}.backup`);
          const backup = await command(['backup', file], source.env);
          expect(backup.code, `backup ${run}: ${backup.output}`).toBe(0);
          expect(backup.output).toContain('The running server on');
          files.push(file);
        }
      } finally {
        await stopHog();
      }
    } finally {
      await app.close();
      await database.close();
    }
    // Each restores (the restore starts the copy once: a cut copy fails there); the last is the data.
    let target = '';
    for (const [i, file] of files.entries()) {
      const into = await place(`loaded-restore-${i}`);
      const restore = await command(['restore', file], into.env);
      expect(restore.code, `restore of ${file}: ${restore.output}`).toBe(0);
      target = into.env.PAGEWATCH_DATA_DIR!;
    }
    const restored = await openDatabase({ url: null, dataDir: target });
    try {
      expect(await fingerprint(restored.db)).toEqual(before);
    } finally {
      await restored.close();
    }
  });

  it('fails, and leaves no file, when the server\'s stream is cut off before the backup is whole', { timeout: 120_000 }, async () => {
    // A whole backup of a stopped folder, of which the "server" below sends only the first half.
    const source = await place('cut');
    const database = await source.open();
    await appOn(database).then((a) => a.close());
    await database.close();
    const whole = join(scratch, 'cut-whole.backup');
    expect((await command(['backup', whole], source.env)).code).toBe(0);
    const bytes = readFileSync(whole);
    // The folder as a running server leaves it: its lock (this process) and its backup socket.
    const dir = source.env.PAGEWATCH_DATA_DIR!;
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString() }));
    const server = createServer((socket) => {
      socket.write(`${JSON.stringify({ ok: true })}\n`);
      socket.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => socket.destroy());
    });
    await new Promise<void>((r) => server.listen(join(dir, BACKUP_SOCKET), r));
    try {
      const file = join(scratch, 'cut.backup');
      const backup = await command(['backup', file], source.env);
      expect(backup.code).toBe(1);
      expect(backup.output).toMatch(/^Backup failed: .+/);
      expect(backup.output.trim().split('\n')).toHaveLength(1);
      expect(readdirSync(scratch).filter((f) => f.startsWith('cut.backup'))).toEqual([]);
    } finally {
      await new Promise((r) => server.close(r));
      rmSync(join(dir, LOCK_FILE), { force: true });
    }
  });
});
