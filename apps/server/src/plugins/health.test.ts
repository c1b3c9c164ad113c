import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, signIn } from '../test/test-app.ts';
import { createAgent } from '../modules/ingest/ingest.fixtures.ts';

let t: Awaited<ReturnType<typeof createTestApp>> | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

describe('health probes', () => {
  it('answer without a session: alive, and ready once the database is reachable and migrated', async () => {
    t = await createTestApp();
    const live = await t.app.inject({ url: '/api/health' });
    expect([live.statusCode, live.json()]).toEqual([200, { status: 'ok' }]);
    const ready = await t.app.inject({ url: '/api/ready' });
    expect([ready.statusCode, ready.json()]).toEqual([200, { status: 'ok' }]);
  });

  it('are not ready while a migration of this build is missing', async () => {
    t = await createTestApp();
    await t.ctx.db.execute(sql`DELETE FROM drizzle.__drizzle_migrations WHERE created_at = (SELECT max(created_at) FROM drizzle.__drizzle_migrations)`);
    const res = await t.app.inject({ url: '/api/ready', headers: { 'accept-language': 'ru' } });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ code: 'NOT_READY', message: 'Сервер не готов: миграции базы данных не применены' });
  });

  it('stay alive but not ready when the database is gone', async () => {
    t = await createTestApp();
    await t.database.close();
    const live = await t.app.inject({ url: '/api/health' });
    expect([live.statusCode, live.json()]).toEqual([200, { status: 'ok' }]);
    const started = Date.now();
    const res = await t.app.inject({ url: '/api/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ code: 'NOT_READY', message: 'The server is not ready: the database cannot be reached' });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  // Last: the readiness it changes is remembered by the process for a while.
  it('answer 503 and are not ready when the database is out of disk space (issue 39)', async () => {
    t = await createTestApp();
    const admin = await signIn(t.app);
    const { token } = await createAgent(t.app, admin, { name: 'Disk full' });
    // PostgreSQL's own error path for a full disk, raised where a write would fail.
    await t.ctx.db.execute(sql.raw(`CREATE FUNCTION pw_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; END $$`));
    await t.ctx.db.execute(sql`CREATE TRIGGER pw_disk_full BEFORE UPDATE ON agents FOR EACH ROW EXECUTE FUNCTION pw_disk_full()`);
    const res = await t.app.inject({ method: 'POST', url: '/api/agent/status', headers: bearer(token), payload: { status: 'IDLE' } });
    expect(res.statusCode, res.body).toBe(503);
    expect(res.headers['retry-after']).toBe('30');
    expect(res.json()).toEqual({ code: 'DATABASE_FULL', message: 'The database is out of disk space or memory; nothing was saved. Try again once the administrator has fixed it' });
    const ready = await t.app.inject({ url: '/api/ready', headers: { 'accept-language': 'ru' } });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ code: 'NOT_READY', message: 'Сервер не готов: у базы данных кончилось место на диске или память' });
    expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
  });
});
