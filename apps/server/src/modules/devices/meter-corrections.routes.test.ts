import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bearer, signedInAs, testApp } from '../../test/test-app.ts';
import { addLocation } from '../../test/scope-fixture.ts';
import { sqlRows } from '../../test/sql-rows.ts';

/**
 * Meter corrections (issue 41): entered and withdrawn by a holder of BTN_EDIT_DEVICE on a device
 * of its locations, every one kept with who, when and why, each change in the event log; bad
 * input a 4xx naming the field in the caller's language.
 */
const t = testApp();
let localAdmin: string;
let operator: string;
let mine: number;
let theirs: number;

const device = async (locationId: number, serial: string) => {
  const [d] = await sqlRows<{ id: number }>(t.ctx.db, sql`INSERT INTO devices (location_id, ip, serial_number, model_code) VALUES (${locationId}, '127.0.0.42', ${serial}, 'M') RETURNING id`);
  return Number(d.id);
};
const call = (token: string, method: 'GET' | 'POST', url: string, payload?: unknown, lang = 'en') =>
  t.app.inject({ method, url, payload: payload as never, headers: { ...bearer(token), 'accept-language': lang } });
const valid = { meter: 'total', fromDate: '2026-10-20', offset: -250, reason: 'Board swapped, old counter 250 over' };

beforeAll(async () => {
  const here = await addLocation(t.ctx.db, 'MC_HERE');
  const there = await addLocation(t.ctx.db, 'MC_THERE');
  // A location administrator holds BTN_EDIT_DEVICE; an operator does not.
  localAdmin = await signedInAs(t, { login: 'mc_boss', role: 'ADMIN', locationIds: [here] });
  operator = await signedInAs(t, { login: 'mc_op', role: 'OPERATOR', locationIds: [here] });
  mine = await device(here, 'MC-1');
  theirs = await device(there, 'MC-2');
});

describe('meter corrections', () => {
  it('keeps every correction with who, when and why, withdrawn ones too, and logs each change', async () => {
    const added = await call(localAdmin, 'POST', `/api/devices/${mine}/meter-corrections`, valid);
    expect(added.statusCode, added.body).toBe(200);
    const [c] = added.json();
    expect(c).toMatchObject({ deviceId: mine, meter: 'total', fromDate: '2026-10-20', offset: -250, reason: valid.reason, createdBy: 'mc_boss', withdrawnAt: null });

    const withdrawn = await call(localAdmin, 'POST', `/api/devices/${mine}/meter-corrections/${c.id}/withdraw`, { reason: 'Entered on the wrong device' });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(withdrawn.json()).toEqual([expect.objectContaining({ id: c.id, offset: -250, withdrawnBy: 'mc_boss', withdrawReason: 'Entered on the wrong device', withdrawnAt: expect.any(String) })]);
    // Once withdrawn, it stays so: a second withdrawal is a conflict, in the caller's language.
    const again = await call(localAdmin, 'POST', `/api/devices/${mine}/meter-corrections/${c.id}/withdraw`, { reason: 'again' }, 'ru');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Эта поправка уже отозвана');
    // An operator of the location reads them.
    expect((await call(operator, 'GET', `/api/devices/${mine}/meter-corrections`)).json()).toHaveLength(1);

    const logs = await sqlRows<{ code: string; level: string; user: string; message: string }>(t.ctx.db, sql`
      SELECT e.message_code AS code, e.log_level AS level, u.login AS user, e.message FROM event_logs e JOIN users u ON u.id = e.user_id
      WHERE e.object_class = 'DeviceDao' AND e.object_id = ${mine} ORDER BY e.id`);
    expect(logs.map((l) => [l.code, l.level, l.user])).toEqual([['device.meterCorrected', 'I', 'mc_boss'], ['device.meterCorrectionWithdrawn', 'W', 'mc_boss']]);
    expect(logs[0].message).toBe(`mc_boss entered meter correction #${c.id} of MC-1: total -250 pages from 2026-10-20 (${valid.reason})`);
  });

  it('is a device write: the grant and the caller\'s locations', async () => {
    // Without BTN_EDIT_DEVICE: refused, and nothing stored.
    expect((await call(operator, 'POST', `/api/devices/${mine}/meter-corrections`, valid)).statusCode).toBe(403);
    // A device outside the caller's locations: refused to read and to change; one that does not exist: 404.
    expect((await call(localAdmin, 'POST', `/api/devices/${theirs}/meter-corrections`, valid)).statusCode).toBe(403);
    expect((await call(localAdmin, 'GET', `/api/devices/${theirs}/meter-corrections`)).statusCode).toBe(403);
    expect((await call(localAdmin, 'POST', '/api/devices/999999/meter-corrections', valid)).statusCode).toBe(404);
    const [other] = (await call(t.admin, 'POST', `/api/devices/${theirs}/meter-corrections`, valid)).json();
    expect((await call(localAdmin, 'POST', `/api/devices/${theirs}/meter-corrections/${other.id}/withdraw`, { reason: 'x' })).statusCode).toBe(403);
    // A correction of another device through this one's path: not found.
    expect((await call(t.admin, 'POST', `/api/devices/${mine}/meter-corrections/${other.id}/withdraw`, { reason: 'x' })).statusCode).toBe(404);
    const stored = await sqlRows<{ n: number }>(t.ctx.db, sql`SELECT count(*)::int AS n FROM meter_corrections WHERE device_id = ${theirs} AND withdrawn_at IS NULL`);
    expect(stored[0].n).toBe(1);
  });

  it('keeps a merged device\'s corrections on the device it is merged into', async () => {
    const older = await device(await addLocation(t.ctx.db, 'MC_MERGE'), 'MC-OLD');
    const newer = await device((await sqlRows<{ l: number }>(t.ctx.db, sql`SELECT location_id AS l FROM devices WHERE id = ${older}`))[0].l, 'MC-NEW');
    expect((await call(t.admin, 'POST', `/api/devices/${older}/meter-corrections`, valid)).statusCode).toBe(200);
    expect((await call(t.admin, 'POST', `/api/devices/${newer}/merge`, { fromId: older })).statusCode).toBe(200);
    expect((await call(t.admin, 'GET', `/api/devices/${newer}/meter-corrections`)).json()).toEqual([expect.objectContaining({ deviceId: newer, offset: -250, reason: valid.reason })]);
  });

  it('answers bad input with a 400 naming the field, in English and Russian', async () => {
    const bad = async (body: Record<string, unknown>, lang: string) => {
      const res = await call(localAdmin, 'POST', `/api/devices/${mine}/meter-corrections`, { ...valid, ...body }, lang);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      return res.json().details[0] as { field: string; message: string };
    };
    expect(await bad({ meter: 'prints' }, 'en')).toMatchObject({ field: 'meter', message: 'Invalid value' });
    expect(await bad({ fromDate: '2026-02-30' }, 'en')).toEqual({ field: 'fromDate', message: 'Enter a date as YYYY-MM-DD' });
    expect(await bad({ fromDate: '2021-12-31' }, 'ru')).toEqual({ field: 'fromDate', message: 'Поправка начинается с дня от 1 января 2022 до 31 декабря 2099 года' });
    expect(await bad({ offset: 0 }, 'en')).toEqual({ field: 'offset', message: 'An offset of 0 pages changes nothing' });
    expect(await bad({ offset: 1.5 }, 'ru')).toEqual({ field: 'offset', message: 'Неверное значение' });
    expect(await bad({ offset: 2_000_000_000_000 }, 'ru')).toMatchObject({ field: 'offset', message: expect.stringContaining('Поправка — целое число страниц') });
    expect(await bad({ reason: 'x'.repeat(501) }, 'en')).toEqual({ field: 'reason', message: 'The value is too long' });
    expect(await bad({ reason: '   ' }, 'ru')).toEqual({ field: 'reason', message: 'Обязательное поле' });
    expect(await bad({ reason: 'a\u0000b' }, 'en')).toMatchObject({ field: 'reason' });
    const withdraw = await call(localAdmin, 'POST', `/api/devices/${mine}/meter-corrections/1/withdraw`, { reason: 'y'.repeat(501) }, 'ru');
    expect(withdraw.statusCode).toBe(400);
    expect(withdraw.json().details[0]).toEqual({ field: 'reason', message: 'Слишком длинное значение' });
    // Without a session: 401.
    expect((await t.app.inject({ method: 'POST', url: `/api/devices/${mine}/meter-corrections`, payload: valid })).statusCode).toBe(401);
  });
});
