import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { AGENT_API_HEADER, AGENT_API_VERSION, type DeviceOutcome } from '@pagewatch/contracts/agent-api';
import { homeSchema } from '@pagewatch/contracts/home';
import { bearer, signedInAs, signIn, testApp } from '../../test/test-app.ts';
import { addLocation } from '../../test/scope-fixture.ts';
import { agentReading, batch, createAgent, post } from '../ingest/ingest.fixtures.ts';

/** Issue 44, "why a device is not collected": each device's latest outcome per agent, on the card and home. */
const t = testApp();
let agent: Awaited<ReturnType<typeof createAgent>>;
let other: Awaited<ReturnType<typeof createAgent>>;
let locB: number;

const headers = (token: string) => ({ ...bearer(token), [AGENT_API_HEADER]: String(AGENT_API_VERSION) });

/** One run of the agent over its range, reporting these devices' outcomes. */
async function run(a: typeof agent, devices: DeviceOutcome[]) {
  const runId = randomUUID();
  const start = await t.app.inject({ method: 'POST', url: '/api/agent/runs', headers: headers(a.token), payload: { runId, startedAt: new Date().toISOString() } });
  expect(start.statusCode, start.body).toBe(200);
  const fin = await t.app.inject({
    method: 'POST', url: `/api/agent/runs/${runId}/finish`, headers: headers(a.token),
    payload: { finishedAt: new Date().toISOString(), rangeResults: [{ rangeId: a.rangeId, scanned: 20, found: devices.filter((d) => !d.reason).length, durationMs: 900, error: null, devices }] },
  });
  expect(fin.statusCode, fin.body).toBe(204);
}

const status = (id: number, query = '', token = t.admin, lang = 'en') => t.app.inject({ url: `/api/agents/${id}/devices-status${query}`, headers: { ...bearer(token), 'accept-language': lang } });

beforeAll(async () => {
  const locA = await addLocation(t.ctx.db, 'DS_A');
  locB = await addLocation(t.ctx.db, 'DS_B');
  agent = await createAgent(t.app, t.admin, { name: 'Status A', locationId: locA, range: { from: '127.0.90.1', to: '127.0.90.20' } });
  other = await createAgent(t.app, t.admin, { name: 'Status B', locationId: locB, range: { from: '127.0.91.1', to: '127.0.91.20' } });
  // .1 is read every time; .2 times out three runs in a row after a good read; .3 refuses its
  // SNMPv3 user once, then is read; .4 answers SNMP but is no printer (never read); .5 fails its profile twice.
  await run(agent, [{ ip: '127.0.90.1', reason: null, ms: 120 }, { ip: '127.0.90.2', reason: null, ms: 300 }, { ip: '127.0.90.3', reason: 'AUTH', ms: 40 }, { ip: '127.0.90.4', reason: 'NO_PRINTER_MIB', ms: 50 }, { ip: '127.0.90.5', reason: 'PROFILE_ERROR', ms: 70 }]);
  for (let i = 0; i < 3; i++) {
    await run(agent, [{ ip: '127.0.90.1', reason: null, ms: 110 + i }, { ip: '127.0.90.2', reason: 'TIMEOUT', ms: 6000 }, { ip: '127.0.90.3', reason: null, ms: 90 }, { ip: '127.0.90.4', reason: 'NO_PRINTER_MIB', ms: 50 }, ...(i === 0 ? [{ ip: '127.0.90.5', reason: 'PROFILE_ERROR' as const, ms: 70 }] : [])]);
  }
  for (let i = 0; i < 3; i++) await run(other, [{ ip: '127.0.91.9', reason: 'REFUSED', ms: 10 }]);
  // .1's reading makes a device: its row names it by model and serial.
  const sent = await post(t.app, agent.token, batch([agentReading('127.0.90.1', { serial: 'DS-SERIAL-1', vendor: 'HP', model: 'LaserJet DS', total: 10 }, { rangeId: agent.rangeId })]));
  expect(sent.statusCode, sent.body).toBe(200);
});

describe("why a device is not collected (issue 44)", () => {
  it("lists each device's last good read, last failure with its reason and time, the failing first", async () => {
    const res = await status(agent.agentId);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { totalRows: number; rows: Record<string, unknown>[] };
    expect(body.totalRows).toBe(5);
    expect(body.rows.map((r) => [r.ip, r.outcome, r.lastFailureReason, r.failuresInRow])).toEqual([
      ['127.0.90.4', 'FAILED', 'NO_PRINTER_MIB', 4],
      ['127.0.90.2', 'FAILED', 'TIMEOUT', 3],
      ['127.0.90.5', 'FAILED', 'PROFILE_ERROR', 2],
      ['127.0.90.1', 'OK', null, 0],
      ['127.0.90.3', 'OK', 'AUTH', 0],
    ]);
    const two = body.rows.find((r) => r.ip === '127.0.90.2')!;
    expect(two).toMatchObject({ lastOkMs: 300, lastFailureMs: 6000, rangeId: agent.rangeId });
    expect(Date.parse(two.lastFailureAt as string)).toBeGreaterThan(Date.parse(two.lastOkAt as string));
    expect(body.rows.find((r) => r.ip === '127.0.90.1')).toMatchObject({ lastOkMs: 112, lastFailureAt: null, serialNumber: 'DS-SERIAL-1', modelCode: expect.stringContaining('LaserJet DS'), deviceId: expect.any(Number) });
    // An address no device is known at shows only the address.
    expect(two).toMatchObject({ deviceId: null, serialNumber: null, modelCode: null });
  });

  it('filters by outcome, reason and the start of the address', async () => {
    const ips = async (q: string) => ((await status(agent.agentId, q)).json().rows as { ip: string }[]).map((r) => r.ip);
    expect(await ips('?outcome=OK')).toEqual(['127.0.90.1', '127.0.90.3']);
    expect(await ips('?reason=TIMEOUT')).toEqual(['127.0.90.2']);
    // .3's AUTH failure is over: it was read since.
    expect(await ips('?reason=AUTH')).toEqual([]);
    expect(await ips('?address=127.0.90.5')).toEqual(['127.0.90.5']);
    expect(await ips('?outcome=FAILED&address=127.0.90.')).toEqual(['127.0.90.4', '127.0.90.2', '127.0.90.5']);
  });

  it('refuses a bad filter with the field, in both languages', async () => {
    for (const [q, field] of [['?reason=SLOW', 'reason'], ['?outcome=MAYBE', 'outcome'], ['?address=10.0.0.0.0.0.0.0', 'address'], ["?address=1'", 'address']] as const) {
      for (const lang of ['en', 'ru']) {
        const res = await status(agent.agentId, q, t.admin, lang);
        expect(res.statusCode, `${q} ${res.body}`).toBe(400);
        expect(res.json().details, q).toContainEqual(expect.objectContaining({ field: `querystring.${field}` }));
        if (lang === 'ru') expect(res.json().message).toMatch(/[а-я]/);
      }
    }
  });

  it("shows only agents of the caller's locations", async () => {
    const b = await signedInAs(t, { login: 'ds_b_admin', role: 'ADMIN', locationIds: [locB] });
    expect((await status(agent.agentId, '', b)).statusCode).toBe(403);
    expect((await status(other.agentId, '', b)).json().rows).toHaveLength(1);
  });

  it("puts devices not read for three runs on home's attention list with the reason, by location", async () => {
    const home = async (token: string) => {
      for (let i = 0; i < 200; i++) {
        const h = homeSchema.parse((await t.app.inject({ url: '/api/home', headers: bearer(token) })).json());
        if (!h.pending) return h;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error('home stayed pending');
    };
    // .4 was never read as a printer (a scanner, a switch): not a lost device. .5 failed twice only.
    const all = (await home(t.admin)).agents!.notRead;
    expect(all.count).toBe(2);
    expect(all.rows.map((r) => [r.agentName, r.ip, r.reason, r.failuresInRow])).toEqual([
      ['Status B', '127.0.91.9', 'REFUSED', 3],
      ['Status A', '127.0.90.2', 'TIMEOUT', 3],
    ]);
    const b = await signIn(t.app, 'ds_b_admin', 'Passw0rd!');
    expect((await home(b)).agents!.notRead.rows.map((r) => r.ip)).toEqual(['127.0.91.9']);
  });

  it('takes one address in two overlapping ranges of a run: a read in either counts', async () => {
    const overlap = await createAgent(t.app, t.admin, { name: 'Overlap', range: { from: '127.0.92.1', to: '127.0.92.9' } });
    const second = (await t.app.inject({ method: 'POST', url: '/api/network-ranges', headers: bearer(t.admin), payload: { type: 'RANGE', from: '127.0.92.1', to: '127.0.92.9', port: 162, snmpVersion: '2c', community: 'public', agent: { id: overlap.agentId } } })).json().id as number;
    const runId = randomUUID();
    await t.app.inject({ method: 'POST', url: '/api/agent/runs', headers: headers(overlap.token), payload: { runId, startedAt: new Date().toISOString() } });
    const result = (rangeId: number, devices: DeviceOutcome[]) => ({ rangeId, scanned: 9, found: 1, durationMs: 1, error: null, devices });
    const fin = await t.app.inject({
      method: 'POST', url: `/api/agent/runs/${runId}/finish`, headers: headers(overlap.token),
      payload: { finishedAt: new Date().toISOString(), rangeResults: [result(overlap.rangeId!, [{ ip: '127.0.92.1', reason: 'AUTH', ms: 5 }, { ip: '127.0.92.2', reason: 'TIMEOUT', ms: 5 }]), result(second, [{ ip: '127.0.92.1', reason: null, ms: 50 }, { ip: '127.0.92.2', reason: 'TIMEOUT', ms: 6 }])] },
    });
    expect(fin.statusCode, fin.body).toBe(204);
    const rows = (await status(overlap.agentId)).json().rows as { ip: string; outcome: string; failuresInRow: number }[];
    expect(rows.map((r) => [r.ip, r.outcome, r.failuresInRow])).toEqual([['127.0.92.2', 'FAILED', 1], ['127.0.92.1', 'OK', 0]]);
  });

  it('refuses more outcomes than the contract allows', async () => {
    const runId = randomUUID();
    await t.app.inject({ method: 'POST', url: '/api/agent/runs', headers: headers(agent.token), payload: { runId, startedAt: new Date().toISOString() } });
    const devices = Array.from({ length: 5001 }, (_, i) => ({ ip: `127.0.${Math.floor(i / 250)}.${(i % 250) + 1}`, reason: null, ms: 1 }));
    const res = await t.app.inject({ method: 'POST', url: `/api/agent/runs/${runId}/finish`, headers: headers(agent.token), payload: { finishedAt: new Date().toISOString(), rangeResults: [{ rangeId: agent.rangeId, scanned: 1, found: 1, durationMs: 1, error: null, devices }] } });
    expect(res.statusCode).toBe(400);
  });
});
