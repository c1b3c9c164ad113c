import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { AGENT_API_HEADER, AGENT_API_VERSION } from '@pagewatch/contracts/agent-api';
import { bearer, testApp } from '../../test/test-app.ts';
import { createAgent } from '../ingest/ingest.fixtures.ts';

const t = testApp();

type Recorded = { method: 'GET' | 'POST'; url: string; headers: Record<string, string>; body: unknown };
const FIXTURES = new URL('../../../test/fixtures/agent-api/', import.meta.url);

/** A release's recorded requests (record-agent-requests.ts), in order, and the ranges they name. */
function recorded(version: string): { requests: Recorded[]; rangeIds: number[]; devices: string[] } {
  const dir = new URL(`${version}/`, FIXTURES);
  const files = readdirSync(dir).filter((f) => /^\d+\.json$/.test(f)).sort();
  const manifest = JSON.parse(readFileSync(new URL('manifest.json', dir), 'utf8')) as { rangeIds: number[]; devices: string[] };
  return { requests: files.map((f) => JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as Recorded), ...manifest };
}

/** The recorded range ids replaced by this test's own (everywhere a `rangeId` names one). */
function withRanges(value: unknown, ranges: Map<number, number>): unknown {
  if (Array.isArray(value)) return value.map((v) => withRanges(v, ranges));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'rangeId' && typeof v === 'number' ? ranges.get(v) ?? v : withRanges(v, ranges)]));
}

async function newRange(agentId: number, from: string, to: string): Promise<number> {
  const res = await t.app.inject({ method: 'POST', url: '/api/network-ranges', headers: bearer(t.admin), payload: { type: 'RANGE', from, to, port: 161, snmpVersion: '2c', community: 'public', agent: { id: agentId } } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id as number;
}

const agentRow = async (id: number) => (await t.app.inject({ url: `/api/agents/${id}`, headers: bearer(t.admin) })).json() as { updateRequired: boolean; version: string | null; status: string };

describe('agents of the previous release keep working (issue 44)', () => {
  it("accepts every request the previous release's agent sent, and its readings and run arrive", async () => {
    const v1 = recorded('v1');
    const agent = await createAgent(t.app, t.admin, { name: 'Previous release', range: { from: '127.0.77.1', to: '127.0.77.3' } });
    const ranges = new Map([[v1.rangeIds[0]!, agent.rangeId!], [v1.rangeIds[1]!, await newRange(agent.agentId, '127.0.78.1', '127.0.78.2')]]);
    expect(v1.requests.map((r) => `${r.method} ${r.url.replace(/[0-9a-f-]{36}/, ':runId')}`)).toEqual(expect.arrayContaining([
      'POST /api/agent/register', 'POST /api/agent/runs', 'POST /api/agent/readings', 'POST /api/agent/runs/:runId/finish', 'POST /api/agent/status',
    ]));
    for (const r of v1.requests) {
      expect(r.headers[AGENT_API_HEADER], 'the previous release sends no version').toBeUndefined();
      const res = await t.app.inject({ method: r.method, url: r.url, headers: { ...r.headers, ...bearer(agent.token) }, ...(r.body === null ? {} : { payload: withRanges(r.body, ranges) as object }) });
      expect(res.statusCode, `${r.method} ${r.url}: ${res.body}`).toBeLessThan(300);
    }
    const devices = (await t.ctx.db.execute(sql`SELECT ip FROM devices WHERE agent_id = ${agent.agentId} ORDER BY ip`)).rows.map((r) => r.ip);
    expect(devices).toEqual(v1.devices);
    const runs = (await t.ctx.db.execute(sql`SELECT finished_at FROM agent_runs WHERE agent_id = ${agent.agentId}`)).rows;
    expect(runs).toHaveLength(1);
    expect(runs[0]!.finished_at).not.toBeNull();
    expect(await agentRow(agent.agentId)).toMatchObject({ version: '0.1.0', status: 'STOPPED', updateRequired: false });
  });

  it("takes this release's version", async () => {
    const agent = await createAgent(t.app, t.admin, { name: 'This release' });
    const res = await t.app.inject({ method: 'POST', url: '/api/agent/register', headers: { ...bearer(agent.token), [AGENT_API_HEADER]: String(AGENT_API_VERSION) }, payload: { version: '0.2.0', hostname: 'h', platform: 'linux' } });
    expect(res.statusCode, res.body).toBe(200);
    expect((await agentRow(agent.agentId)).updateRequired).toBe(false);
  });

  it('answers an older agent 426 "update required" in its language, never a bare 400, and the console shows it', async () => {
    const agent = await createAgent(t.app, t.admin, { name: 'Too old' });
    const old = String(AGENT_API_VERSION - 2);
    for (const [lang, text] of [['en', 'Update required: this agent speaks version 0 of the agent API'], ['ru', 'Требуется обновление: агент использует версию 0 API агентов']] as const) {
      const res = await t.app.inject({ method: 'POST', url: '/api/agent/status', headers: { ...bearer(agent.token), [AGENT_API_HEADER]: old, 'accept-language': lang }, payload: { status: 'IDLE' } });
      expect(res.statusCode).toBe(426);
      expect(res.json()).toMatchObject({ code: 'AGENT_UPDATE_REQUIRED' });
      expect(res.json().message).toContain(text);
    }
    expect(await agentRow(agent.agentId)).toMatchObject({ updateRequired: true, status: 'STOPPED' });
    const grid = (await t.app.inject({ url: '/api/agents?pageSize=100&pageNumber=1', headers: bearer(t.admin) })).json().pageRows as { id: number; updateRequired: boolean }[];
    expect(grid.find((a) => a.id === agent.agentId)?.updateRequired).toBe(true);
    expect((await t.app.inject({ url: `/api/agents/${agent.agentId}/status`, headers: bearer(t.admin) })).json().updateRequired).toBe(true);

    // Updated: its next config read clears it.
    const res = await t.app.inject({ url: '/api/agent/config', headers: { ...bearer(agent.token), [AGENT_API_HEADER]: String(AGENT_API_VERSION) } });
    expect(res.statusCode, res.body).toBe(200);
    expect((await agentRow(agent.agentId)).updateRequired).toBe(false);
  });

  it('refuses a version that is no number with the header named', async () => {
    const agent = await createAgent(t.app, t.admin, { name: 'Garbled' });
    const res = await t.app.inject({ url: '/api/agent/config', headers: { ...bearer(agent.token), [AGENT_API_HEADER]: 'two' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([expect.objectContaining({ field: AGENT_API_HEADER })]);
  });
});
