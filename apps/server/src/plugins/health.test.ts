import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp } from '../test/test-app.ts';

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
});
