import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { locations } from '../../db/schema/locations.ts';
import { eventLogs } from '../../db/schema/event-logs.ts';
import { bearer, signedInAs, testApp } from '../../test/test-app.ts';
import { sqlRows } from '../../test/sql-rows.ts';
import { logSubject } from './event-log-subject.ts';

/** The structured fields of the event log (issue 40): device, serial and address as columns that filter. */
const t = testApp();
let north: number;
let south: number;
const ids: Record<string, number> = {};

const deviceSn = (model: string, sn: string, ip: string) => ({ key: 'log.part.deviceSn', params: { model, sn, ip } });
const page = (token: string, filter: unknown) =>
  t.app.inject({ url: `/api/event-logs/page?page=100,1&filter-json=${encodeURIComponent(JSON.stringify(filter))}`, headers: bearer(token) });
const found = async (token: string, filter: unknown) => {
  const res = await page(token, filter);
  expect(res.statusCode).toBe(200);
  return (res.json().pageRows as { id: number }[]).map((r) => r.id).sort((a, b) => a - b);
};

beforeAll(async () => {
  const db = t.ctx.db;
  const [{ id: defaultId }] = await db.select({ id: locations.id }).from(locations).where(eq(locations.code, 'DEFAULT'));
  [{ id: north }] = await db.insert(locations).values({ code: 'NORTH', name: 'North', parentId: defaultId }).returning({ id: locations.id });
  [{ id: south }] = await db.insert(locations).values({ code: 'SOUTH', name: 'South', parentId: defaultId }).returning({ id: locations.id });
  const log = t.ctx.eventLog;
  ids.northNew = await log.write({ group: 'DEVICES', level: 'I', messageCode: 'device.NEW_DEVICE', params: { device: deviceSn('HP M404', 'CNB1234', '10.1.2.3') }, locationId: north });
  ids.southNew = await log.write({ group: 'DEVICES', level: 'I', messageCode: 'device.NEW_DEVICE', params: { device: deviceSn('Canon C3520', 'CNB1234', '10.9.0.7') }, locationId: south });
  // Written in bulk, as the ingest writes: the same fields.
  [ids.northNote] = await log.writeMany([{ group: 'DEVICES', level: 'W', messageCode: 'device.serialElsewhere', params: { serial: 'XYZ-77', ip: '10.1.2.99' }, locationId: north }]);
  ids.signIn = await log.write({ group: 'AUTH', level: 'W', messageCode: 'auth.failed', params: { login: 'nobody', address: '127.0.0.9' } });
  ids.plain = await log.write({ group: 'SYSTEM', level: 'I', message: 'serial CNB1234 at 10.1.2.3 in the text only' });
});

describe('event log structured fields', () => {
  it('reads the device, serial and address from the params, their parts too, and nothing from other values', () => {
    expect(logSubject({ device: deviceSn('HP M404', 'CNB1234', '10.1.2.3') })).toEqual({ device: 'HP M404', serial: 'CNB1234', address: '10.1.2.3' });
    expect(logSubject({ serial: 'S1', ip: '10.0.0.1', device: deviceSn('M', 'S2', '10.0.0.2') })).toEqual({ device: 'M', serial: 'S1', address: '10.0.0.1' });
    // A model that is itself a translatable part ("device") names no model.
    expect(logSubject({ device: { key: 'log.part.device', params: { model: { key: 'log.part.unknownModel' }, ip: '10.0.0.3' } } })).toEqual({ device: null, serial: null, address: '10.0.0.3' });
    expect(logSubject({ login: 'x', count: 3 })).toEqual({ device: null, serial: null, address: null });
    expect(logSubject(null)).toEqual({ device: null, serial: null, address: null });
    expect(logSubject({ sn: 'S'.repeat(300) }).serial).toHaveLength(100);
  });

  it('lists the fields and filters on them (equality and prefix), scoped to the caller as before', async () => {
    const rows = (await page(t.admin, ['id', '=', ids.northNew])).json().pageRows;
    expect(rows[0]).toMatchObject({ device: 'HP M404', serial: 'CNB1234', address: '10.1.2.3' });
    expect(await found(t.admin, ['serial', '=', 'CNB1234'])).toEqual([ids.northNew, ids.southNew]);
    expect(await found(t.admin, ['address', 'startswith', '10.1.'])).toEqual([ids.northNew, ids.northNote]);
    expect(await found(t.admin, ['address', '=', '127.0.0.9'])).toEqual([ids.signIn]);
    expect(await found(t.admin, ['device', 'contains', 'm404'])).toEqual([ids.northNew]);
    expect(await found(t.admin, ['serial', 'startswith', 'xyz'])).toEqual([ids.northNote]);
    const northOp = await signedInAs(t, { login: 'op-north', role: 'OPERATOR', locationIds: [north] });
    expect(await found(northOp, ['serial', '=', 'CNB1234'])).toEqual([ids.northNew]);
    expect(await found(northOp, ['address', '=', '127.0.0.9'])).toEqual([]);
  });

  it('migration 0050 fills the records written before it as the server writes them', async () => {
    const db = t.ctx.db;
    await db.update(eventLogs).set({ device: null, serial: null, address: null });
    const migration = readFileSync(new URL('../../../drizzle/0050_event_log_subjects.sql', import.meta.url), 'utf8');
    const update = migration.split('--> statement-breakpoint').find((s) => s.includes('UPDATE "event_logs"'))!;
    await db.execute(sql.raw(update.replace(/^--.*$/gm, '')));
    const stored = await sqlRows<{ id: string; device: string | null; serial: string | null; address: string | null; message_params: unknown }>(
      db, sql`SELECT id, device, serial, address, message_params FROM event_logs`);
    expect(stored.length).toBeGreaterThan(4);
    for (const r of stored) {
      const p = typeof r.message_params === 'string' ? JSON.parse(r.message_params) : r.message_params;
      expect({ device: r.device, serial: r.serial, address: r.address }, `record ${r.id}`).toEqual(logSubject(p as Record<string, unknown> | null));
    }
  });
});
