import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { alertSchema } from '@pagewatch/contracts/alerts';
import { bearer, signedInAs, testApp } from '../../test/test-app.ts';
import { addLocation } from '../../test/scope-fixture.ts';
import { sqlRows } from '../../test/sql-rows.ts';

const t = testApp();
let operator: string;
let mine: number;
let other: number;
const ids: Record<string, number> = {};

const call = (token: string | null, method: 'GET' | 'POST', url: string, lang = 'en') =>
  t.app.inject({ method, url, headers: { ...(token ? bearer(token) : {}), 'accept-language': lang } });

async function deviceAlert(locationId: number, serial: string, extra = sql``): Promise<number> {
  const [d] = await sqlRows<{ id: number }>(t.ctx.db, sql`INSERT INTO devices (location_id, ip, serial_number, model_code, status_code) VALUES (${locationId}, '127.0.43.1', ${serial}, 'Model', 'ERROR') RETURNING id`);
  const [a] = await sqlRows<{ id: number }>(t.ctx.db, sql`INSERT INTO alerts (kind, device_id, started_at, start_mailed) VALUES ('DEVICE_ERROR', ${d.id}, now() - interval '2 hours', true) RETURNING id`);
  if (extra.queryChunks.length) await t.ctx.db.execute(sql`UPDATE alerts SET ${extra} WHERE id = ${a.id}`);
  return Number(a.id);
}

beforeAll(async () => {
  mine = await addLocation(t.ctx.db, 'AL_MINE');
  other = await addLocation(t.ctx.db, 'AL_OTHER');
  operator = await signedInAs(t, { login: 'al_op', role: 'OPERATOR', locationIds: [mine] });
  ids.mine = await deviceAlert(mine, 'ALR1');
  ids.other = await deviceAlert(other, 'ALR2');
  ids.resolved = await deviceAlert(mine, 'ALR3', sql`resolved_at = now()`);
  const [g] = await sqlRows<{ id: number }>(t.ctx.db, sql`INSERT INTO agents (name, token_hash, location_id, last_contact_at) VALUES ('Quiet', ${'f'.repeat(64)}, ${mine}, now() - interval '1 day') RETURNING id`);
  const [a] = await sqlRows<{ id: number }>(t.ctx.db, sql`INSERT INTO alerts (kind, agent_id, started_at) VALUES ('AGENT_SILENT', ${g.id}, now() - interval '1 day') RETURNING id`);
  ids.agent = Number(a.id);
});

describe('alerts API', () => {
  it('answers 401 without a session', async () => {
    expect((await call(null, 'GET', '/api/alerts')).statusCode).toBe(401);
    expect((await call(null, 'POST', `/api/alerts/${ids.mine}/acknowledge`)).statusCode).toBe(401);
  });

  it('lists the open alerts of the caller\'s locations, the oldest first; an agent\'s only to who sees agents', async () => {
    const all = (await call(t.admin, 'GET', '/api/alerts')).json();
    expect(all.map((a: { id: number }) => a.id)).toEqual([ids.agent, ids.mine, ids.other]);
    expect(alertSchema.parse(all[1])).toMatchObject({ kind: 'DEVICE_ERROR', device: { serialNumber: 'ALR1' }, locationName: expect.any(String), acknowledgedBy: null, resolvedAt: null });
    expect(all[0]).toMatchObject({ kind: 'AGENT_SILENT', agent: { name: 'Quiet' }, device: null });
    // The operator sees its location's only, and no agents (its role does not read them).
    const op = (await call(operator, 'GET', '/api/alerts')).json();
    expect(op.map((a: { id: number }) => a.id)).toEqual([ids.mine]);
    // open=false: the resolved ones too, the newest first.
    const every = (await call(operator, 'GET', '/api/alerts?open=false')).json();
    expect(every.map((a: { id: number }) => a.id)).toEqual([ids.resolved, ids.mine]);
  });

  it('refuses a bad query with the field and a message in the caller\'s language', async () => {
    const en = await call(t.admin, 'GET', '/api/alerts?open=maybe&limit=100000');
    expect(en.statusCode).toBe(400);
    expect(JSON.stringify(en.json())).toMatch(/open/);
    expect(JSON.stringify(en.json())).toMatch(/limit/);
    const ru = await call(t.admin, 'GET', '/api/alerts?limit=0', 'ru');
    expect(ru.statusCode).toBe(400);
    expect(JSON.stringify(ru.json())).toMatch(/[а-яА-Я]/);
    expect((await call(t.admin, 'POST', '/api/alerts/abc/acknowledge')).statusCode).toBe(400);
  });

  it('records who acknowledged an open alert and when; outside the caller\'s locations it is not found; a resolved one is a conflict', async () => {
    const res = await call(operator, 'POST', `/api/alerts/${ids.mine}/acknowledge`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: ids.mine, acknowledgedBy: 'al_op', acknowledgedAt: expect.any(String) });
    // A second one keeps the first.
    const again = await call(t.admin, 'POST', `/api/alerts/${ids.mine}/acknowledge`);
    expect(again.json()).toMatchObject({ acknowledgedBy: 'al_op', acknowledgedAt: res.json().acknowledgedAt });
    expect((await call(operator, 'POST', `/api/alerts/${ids.other}/acknowledge`)).statusCode).toBe(404);
    expect((await call(operator, 'POST', `/api/alerts/${ids.agent}/acknowledge`)).statusCode).toBe(404);
    expect((await call(operator, 'POST', '/api/alerts/999999/acknowledge')).statusCode).toBe(404);
    const resolved = await call(operator, 'POST', `/api/alerts/${ids.resolved}/acknowledge`, 'ru');
    expect(resolved.statusCode).toBe(409);
    expect(resolved.json().message).toBe('Оповещение уже закрыто');
    expect((await call(operator, 'POST', `/api/alerts/${ids.resolved}/acknowledge`)).json().message).toBe('The alert is resolved already');
  });
});
