import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { WsMessage } from '@pagewatch/contracts/ws';
import { bearer, signedInAs, testApp } from '../../test/test-app.ts';
import { addLocation } from '../../test/scope-fixture.ts';
import { agentReading, batch, createAgent } from '../ingest/ingest.fixtures.ts';
import { directTransport, ensureBuiltinAgent, startBuiltinAgent } from './builtin-agent.ts';
import { BUNDLED_PACK_PATH } from '../models/models.service.ts';

/** The models pack that ships with the server, which a new database starts with. */
const BUNDLED_VERSION = (JSON.parse(readFileSync(BUNDLED_PACK_PATH, 'utf8')) as { version: number }).version;

const t = testApp();
let defaultLocation: number;

beforeAll(async () => {
  defaultLocation = (await t.app.inject({ url: '/api/user-locations/', headers: bearer(t.admin) })).json().pageRows.find((l: { code: string }) => l.code === 'DEFAULT').id;
});

const get = (url: string, token: string) => t.app.inject({ url, headers: bearer(token) });
const send = (method: 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

describe('agents API', () => {
  it('needs a signed-in user with MNU_AGENTS', async () => {
    expect((await t.app.inject({ url: '/api/agents' })).statusCode).toBe(401);
    const op = await signedInAs(t, { login: 'operator1', role: 'OPERATOR', locationIds: [defaultLocation] });
    expect((await get('/api/agents', op)).statusCode).toBe(403);
    expect((await send('POST', '/api/agents', op, { name: 'x', location: { id: defaultLocation } })).statusCode).toBe(403);
  });

  it('creates an agent and shows its token once', async () => {
    const res = await send('POST', '/api/agents', t.admin, { name: 'Office agent', location: { id: defaultLocation } });
    expect(res.statusCode, res.body).toBe(200);
    const created = res.json();
    expect(created.token).toMatch(/^pwa_/);
    expect(created).toMatchObject({ name: 'Office agent', status: 'STOPPED', lastContactAt: null, location: { id: defaultLocation } });
    const one = await get(`/api/agents/${created.id}`, t.admin);
    expect(one.json().token).toBeUndefined();
    expect(JSON.stringify(one.json())).not.toContain(created.token);
    for (const url of ['/api/agents', '/api/agents-v', '/api/agents-v/page']) {
      const list = await get(`${url}?page=20,1&sort=name,ASC`, t.admin);
      expect(list.statusCode).toBe(200);
      expect(list.json().pageRows.map((r: { name: string }) => r.name)).toContain('Office agent');
      expect(JSON.stringify(list.json())).not.toContain(created.token);
    }
    expect((await get('/api/agents?filter-json=[["tokenHash","=","x"]]', t.admin)).statusCode).toBe(400);
    // The token works for the agent protocol, and registering fills in what the agent is.
    const reg = await send('POST', '/api/agent/register', created.token, { version: '0.1.0', hostname: 'pc1', platform: 'linux' });
    expect(reg.statusCode, reg.body).toBe(200);
    expect(reg.json()).toMatchObject({ agentId: created.id, periodicityMinutes: 15, modelsVersion: BUNDLED_VERSION, ranges: [] });
    const after = (await get(`/api/agents/${created.id}`, t.admin)).json();
    expect(after).toMatchObject({ version: '0.1.0', hostname: 'pc1' });
    expect(after.lastContactAt).not.toBeNull();
  });

  it('validates, updates, regenerates the token and deletes', async () => {
    const bad = await send('POST', '/api/agents', t.admin, { name: '', location: { id: defaultLocation } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].field).toBe('name');
    const { agentId, token } = await createAgent(t.app, t.admin, { name: 'Temp' });
    const put = await send('PUT', `/api/agents/${agentId}`, t.admin, { name: 'Renamed', location: { id: defaultLocation } });
    expect(put.json().name).toBe('Renamed');
    expect((await send('POST', '/api/agent/status', token, { status: 'RUNNING', message: 'polling' })).statusCode).toBe(204);
    const regen = await send('POST', `/api/agents/${agentId}/regenerate-token`, t.admin);
    expect(regen.statusCode).toBe(200);
    // The agent on the old token is switched off: the console no longer shows it running.
    expect(regen.json()).toMatchObject({ status: 'STOPPED', statusMessage: null });
    const fresh = regen.json().token;
    expect(fresh).not.toBe(token);
    // The agent with the old token is told it is switched off, not that a user failed to sign in (issue 56).
    const refused = await get('/api/agent/config', token);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ code: 'UNAUTHENTICATED', message: expect.stringMatching(/^This agent is switched off: it was deleted or its token was renewed/) });
    const ru = await t.app.inject({ url: '/api/agent/config', headers: { ...bearer(token), 'accept-language': 'ru' } });
    expect(ru.json().message).toMatch(/^Этот агент отключён/);
    expect((await t.app.inject({ method: 'POST', url: '/api/agent/status', payload: { status: 'IDLE' } })).json().message).toMatch(/^This agent is switched off/);
    expect((await get('/api/agent/config', fresh)).statusCode).toBe(200);
    expect((await send('DELETE', `/api/agents/${agentId}`, t.admin)).statusCode).toBe(204);
    expect((await get(`/api/agents/${agentId}`, t.admin)).statusCode).toBe(404);
    expect((await get('/api/agent/config', fresh)).json()).toMatchObject({ code: 'UNAUTHENTICATED', message: expect.stringMatching(/^This agent is switched off/) });
  });

  it('keeps agents of other locations out of scope', async () => {
    const [loc] = (await t.ctx.db.execute(sql`INSERT INTO locations (code, name) VALUES ('BRANCH', 'Branch') RETURNING id`)).rows as { id: number }[];
    await t.ctx.db.execute(sql`INSERT INTO user_locations (user_id, location_id) SELECT id, ${loc.id} FROM users WHERE login = 'admin'`);
    const { agentId } = await createAgent(t.app, t.admin, { name: 'Branch agent', locationId: loc.id });
    // An ADMIN below DEFAULT: one at DEFAULT is the default administrator and sees every root (issue 14).
    const [sub] = (await t.ctx.db.execute(sql`INSERT INTO locations (code, name, parent_id) VALUES ('SUB', 'Sub', ${defaultLocation}) RETURNING id`)).rows as { id: number }[];
    const other = await signedInAs(t, { login: 'branchless', role: 'ADMIN', locationIds: [sub.id] });
    const res = await get(`/api/agents/${agentId}`, other);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('OUT_OF_SCOPE');
    const list = (await get('/api/agents?page=100,1', other)).json();
    expect(list.pageRows.map((r: { id: number }) => r.id)).not.toContain(agentId);
  });

  it("gives no new token for an agent that scans a range owned above the caller: it would hand that range's community to whoever installs it", async () => {
    const child = await addLocation(t.ctx.db, 'TOKEN_CHILD');
    const childAdmin = await signedInAs(t, { login: 'childAdmin', role: 'ADMIN', locationIds: [child] });
    const { agentId, token } = await createAgent(t.app, t.admin, { name: 'Child agent', locationId: child });
    const range = { type: 'RANGE', from: '10.77.0.1', to: '10.77.0.9', port: 161, snmpVersion: '2c', community: 'parent-secret', agent: { id: agentId }, location: { id: defaultLocation } };
    const rangeId = (await send('POST', '/api/network-ranges', t.admin, range)).json().id;
    for (const lang of ['en', 'ru']) {
      const res = await t.app.inject({ method: 'POST', url: `/api/agents/${agentId}/regenerate-token`, headers: { ...bearer(childAdmin), 'accept-language': lang } });
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().message).toMatch(lang === 'en' ? /^This agent scans network ranges of locations outside yours/ : /^Этот агент сканирует сетевые диапазоны чужих расположений/);
    }
    // The agent keeps its token and its work; the default administrator may renew it.
    expect((await get('/api/agent/config', token)).json().ranges.map((r: { id: number }) => r.id)).toEqual([rangeId]);
    expect((await send('POST', `/api/agents/${agentId}/regenerate-token`, t.admin)).statusCode).toBe(200);
    // The range made the child's: its community is still the default administrator's (issue 52).
    const moved = { ...range, location: { id: child }, community: null };
    expect((await send('PUT', `/api/network-ranges/${rangeId}`, t.admin, moved)).statusCode).toBe(200);
    expect((await send('POST', `/api/agents/${agentId}/regenerate-token`, childAdmin)).statusCode).toBe(403);
    // Given again by the child's admin, the community is its own, and so is the token.
    expect((await send('PUT', `/api/network-ranges/${rangeId}`, childAdmin, { ...moved, community: 'child-secret' })).statusCode).toBe(200);
    expect((await send('POST', `/api/agents/${agentId}/regenerate-token`, childAdmin)).statusCode).toBe(200);
  });

  it('asks every agent to update: config says so once', async () => {
    const { token, agentId } = await createAgent(t.app, t.admin, { name: 'Updater' });
    expect((await get('/api/agent/config', token)).json().updateRequested).toBe(false);
    const res = await send('POST', '/api/agents/notify-all/UPDATE_VERSION', t.admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().count).toBeGreaterThan(0);
    expect((await get(`/api/agents/${agentId}/status`, t.admin)).json().updatePending).toBe(true);
    const cfg = (await get('/api/agent/config', token)).json();
    expect(cfg.updateRequested).toBe(true);
    expect(cfg.configVersion).toBe(1);
    expect((await get('/api/agent/config', token)).json().updateRequested).toBe(false);
    expect((await send('POST', '/api/agents/notify-all/SOMETHING_ELSE', t.admin)).statusCode).toBe(400);
  });

  it('records status reports and serves the models pack', async () => {
    const { token, agentId } = await createAgent(t.app, t.admin, { name: 'Status' });
    expect((await send('POST', '/api/agent/status', token, { status: 'RUNNING', message: 'polling' })).statusCode).toBe(204);
    expect((await send('POST', '/api/agent/status', token, { status: 'DANCING' })).statusCode).toBe(400);
    const status = (await get(`/api/agents/${agentId}/status`, t.admin)).json();
    expect(status).toMatchObject({ status: 'RUNNING', statusMessage: 'polling' });
    const pack = await get('/api/agent/models-pack', token);
    expect(pack.statusCode).toBe(200);
    expect(pack.json()).toMatchObject({ schema: 'pagewatch/models-pack@1', version: BUNDLED_VERSION });
    expect((await get('/api/agent/models-pack', t.admin)).statusCode).toBe(401);
  });
});

describe('agent runs in the event log', () => {
  it('opens a parent record, adds children, closes it with duration and worst level', async () => {
    const { token, agentId, rangeId } = await createAgent(t.app, t.admin, { name: 'Runner', range: { from: '127.0.20.1', to: '127.0.20.10' } });
    const runId = randomUUID();
    const startedAt = new Date(Date.now() - 60_000);
    const start = await send('POST', '/api/agent/runs', token, { runId, startedAt: startedAt.toISOString() });
    expect(start.statusCode, start.body).toBe(200);
    const { logId } = start.json();
    // The same run again is the same record.
    expect((await send('POST', '/api/agent/runs', token, { runId, startedAt: startedAt.toISOString() })).json().logId).toBe(logId);
    const seen: WsMessage[] = [];
    const off = t.ctx.hub.subscribe(`log:${logId}`, (m) => seen.push(m));
    expect((await send('POST', `/api/agent/runs/${runId}/problems`, token, { rangeId, level: 'W', message: '127.0.20.5 answers, but not with SNMP' })).statusCode).toBe(204);
    await t.app.inject({ method: 'POST', url: '/api/agent/readings', headers: bearer(token), payload: batch([agentReading('127.0.20.1', { serial: 'RUN1', total: 5 }, { runId, rangeId })]) });
    // A second range of the agent, unreachable (a range not its own refuses the finish: agent-run-flood.test.ts).
    const second = (await send('POST', '/api/network-ranges', t.admin, { type: 'RANGE', from: '127.0.21.1', to: '127.0.21.2', port: 161, snmpVersion: '2c', community: 'public', agent: { id: agentId } })).json().id as number;
    const fin = await send('POST', `/api/agent/runs/${runId}/finish`, token, {
      finishedAt: new Date(startedAt.getTime() + 12_345).toISOString(),
      rangeResults: [{ rangeId, scanned: 10, found: 1, durationMs: 12_000, error: null }, { rangeId: second, scanned: 0, found: 0, durationMs: 1, error: 'network unreachable' }],
    });
    expect(fin.statusCode, fin.body).toBe(204);
    off();
    expect(seen.map((m) => m.type)).toContain('EVENT_LOG_FINISHED');
    const [parent] = (await t.ctx.db.execute(sql`SELECT * FROM event_logs WHERE id = ${logId}`)).rows as Record<string, unknown>[];
    expect(parent).toMatchObject({ log_level: 'E', duration_ms: 12_345, object_class: 'AgentDao', children_count: 3 });
    expect(Number(parent.object_id)).toBe(agentId);
    const children = (await t.ctx.db.execute(sql`SELECT log_level, object_class FROM event_logs WHERE parent_id = ${logId} ORDER BY id`)).rows;
    expect(children).toEqual([
      { log_level: 'W', object_class: 'NetworkRangeDao' },
      { log_level: 'I', object_class: 'NetworkRangeDao' },
      { log_level: 'E', object_class: 'NetworkRangeDao' },
    ]);
    const status = (await get(`/api/agents/${agentId}/status`, t.admin)).json();
    expect(status.runs[0]).toMatchObject({ runId, logId, logLevel: 'E', durationMs: 12_345, message: 'Agent Runner: 1 devices found in 2 range(s)' });
    // The result reads in the reader's language, as in the event log.
    const ru = (await t.app.inject({ url: `/api/agents/${agentId}/status`, headers: { ...bearer(t.admin), 'accept-language': 'ru' } })).json();
    expect(ru.runs[0].message).toBe('Агент Runner: найдено устройств: 1, диапазонов: 2');
    // Another agent cannot touch this run.
    const other = await createAgent(t.app, t.admin, { name: 'Other' });
    expect((await send('POST', `/api/agent/runs/${runId}/problems`, other.token, { level: 'I', message: 'x' })).statusCode).toBe(404);
  });
});

describe('built-in agent', () => {
  it('drives the agent protocol through direct calls', async () => {
    const id = await ensureBuiltinAgent(t.ctx);
    expect(await ensureBuiltinAgent(t.ctx)).toBe(id);
    const transport = directTransport(t.ctx, id);
    const cfg = await transport.register({ version: 'builtin', hostname: 'server', platform: 'linux' });
    expect(cfg.agentId).toBe(id);
    const runId = randomUUID();
    await transport.startRun(runId, new Date(Date.now() - 1000).toISOString());
    const res = await transport.sendReadings(batch([agentReading('127.0.30.1', { serial: 'BUILTIN1', total: 1 }, { runId })]));
    expect(res).toEqual({ stored: 1, duplicates: 0, rejected: [] });
    await transport.finishRun(runId, { finishedAt: new Date().toISOString(), rangeResults: [] });
    const agent = (await get(`/api/agents/${id}`, t.admin)).json();
    expect(agent).toMatchObject({ builtin: true, version: 'builtin', deviceCount: 1 });
  });

  it('starts a runner given by the agent package and maps errors to its transport errors', async () => {
    let started = false;
    const errors: string[] = [];
    const runner = await startBuiltinAgent(
      t.ctx,
      (transport) => ({
        start: () => {
          started = true;
          void transport.problem(randomUUID(), { rangeId: null, level: 'I', message: 'no such run' }).catch((e: Error) => errors.push(e.message));
        },
        stop: async () => {},
      }),
      (kind, message) => new Error(`${kind}: ${message}`),
    );
    expect(started).toBe(true);
    await new Promise((r) => setTimeout(r, 200));
    expect(errors[0]).toMatch(/^rejected: /);
    await runner.stop();
  });
});
