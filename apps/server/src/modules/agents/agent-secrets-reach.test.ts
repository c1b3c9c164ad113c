import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bearer, signedInAs, testApp } from '../../test/test-app.ts';
import { addLocation } from '../../test/scope-fixture.ts';

/**
 * Issue 52, finding 1: an agent token reads the secrets of the agent's ranges and queues in
 * clear. Whoever mints one (a new token, a new agent) or hands secrets to an agent whose token
 * it holds must reach whoever set them: a location admin does not get the default admin's.
 */
const t = testApp();
let A: number;
let adminA: string;

beforeAll(async () => {
  A = await addLocation(t.ctx.db, 'REACH_A');
  adminA = await signedInAs(t, { login: 'reach-admin-a', role: 'ADMIN', locationIds: [A] });
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: object, lang?: string) =>
  t.app.inject({ method, url, headers: { ...bearer(token), ...(lang ? { 'accept-language': lang } : {}) }, ...(payload ? { payload } : {}) });
const ok = async (method: 'POST' | 'PUT', url: string, token: string, payload?: object) => {
  const res = await call(method, url, token, payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const agentBy = (token: string) => ok('POST', '/api/agents', token, { name: `agent ${Math.random()}`, location: { id: A } });
const rangeOf = (agentId: number, community: string) => ({ type: 'RANGE', from: '127.0.0.10', to: '127.0.0.20', port: 161, snmpVersion: '2c', community, agent: { id: agentId }, location: { id: A } });
const queueOf = (agentId: number, password: string) => ({ type: 'IPP', agent: { id: agentId }, host: 'cups.reach.local', port: 631, url: '/printers/reach', password });
const tokenHash = async (id: number) => (await t.ctx.db.execute(sql`SELECT token_hash FROM agents WHERE id = ${id}`)).rows[0];
const configOf = async (token: string) => JSON.stringify((await call('GET', '/api/agent/config', token)).json());

describe("an agent's secrets go only to a token minted by someone who reaches their setter", () => {
  it("a location admin cannot renew the token of its agent that reads the default admin's community and queue password", async () => {
    const agent = await agentBy(t.admin);
    const range = await ok('POST', '/api/network-ranges', t.admin, rangeOf(agent.id, 'root-community'));
    await ok('POST', '/api/queues', t.admin, queueOf(agent.id, 'root-queue-password'));
    const before = await tokenHash(agent.id);

    const refused = await call('POST', `/api/agents/${agent.id}/regenerate-token`, adminA);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'FORBIDDEN' });
    expect(refused.json().message).toContain('DEFAULT');
    expect(refused.body).not.toContain('root-community');
    const ru = await call('POST', `/api/agents/${agent.id}/regenerate-token`, adminA, undefined, 'ru');
    expect(ru.statusCode).toBe(403);
    expect(ru.json().message).toMatch(/[а-я]/);
    expect(ru.json().message).toContain('DEFAULT');
    expect(await tokenHash(agent.id)).toEqual(before);

    // Editing the range without its community keeps it the default admin's.
    await ok('PUT', `/api/network-ranges/${range.id}`, adminA, { ...rangeOf(agent.id, 'x'), community: null, name: 'renamed' });
    expect((await call('POST', `/api/agents/${agent.id}/regenerate-token`, adminA)).statusCode).toBe(403);

    // The default admin may renew it, and the new token reads both secrets.
    const renewed = await ok('POST', `/api/agents/${agent.id}/regenerate-token`, t.admin);
    const config = await configOf(renewed.token);
    expect(config).toContain('root-community');
    expect(config).toContain('root-queue-password');
  });

  it('each secret counts: the queue password alone, or a v3 key, keeps the token with its setter', async () => {
    const onlyQueue = await agentBy(t.admin);
    await ok('POST', '/api/queues', t.admin, queueOf(onlyQueue.id, 'root-only-queue'));
    expect((await call('POST', `/api/agents/${onlyQueue.id}/regenerate-token`, adminA)).statusCode).toBe(403);

    const v3 = await agentBy(t.admin);
    const payload = { ...rangeOf(v3.id, ''), community: undefined, snmpVersion: '3', v3User: 'u', v3Level: 'authPriv', v3AuthProtocol: 'sha', authKey: 'root-auth-key', v3PrivProtocol: 'aes', privKey: 'root-priv-key' };
    const range = await ok('POST', '/api/network-ranges', t.admin, payload);
    expect((await call('POST', `/api/agents/${v3.id}/regenerate-token`, adminA)).statusCode).toBe(403);
    // Given again by the location admin, one key is not enough: the other is still the default admin's.
    await ok('PUT', `/api/network-ranges/${range.id}`, adminA, { ...payload, authKey: 'a-auth-key', privKey: null });
    expect((await call('POST', `/api/agents/${v3.id}/regenerate-token`, adminA)).statusCode).toBe(403);
    await ok('PUT', `/api/network-ranges/${range.id}`, adminA, { ...payload, authKey: 'a-auth-key', privKey: 'a-priv-key' });
    const renewed = await ok('POST', `/api/agents/${v3.id}/regenerate-token`, adminA);
    expect(await configOf(renewed.token)).toContain('a-priv-key');
  });

  it('secrets the location admin gave itself, or gave again, are its to renew', async () => {
    const own = await agentBy(adminA);
    await ok('POST', '/api/network-ranges', adminA, rangeOf(own.id, 'a-community'));
    await ok('POST', '/api/queues', adminA, queueOf(own.id, 'a-queue-password'));
    const renewed = await ok('POST', `/api/agents/${own.id}/regenerate-token`, adminA);
    expect(await configOf(renewed.token)).toContain('a-queue-password');

    const agent = await agentBy(t.admin);
    const range = await ok('POST', '/api/network-ranges', t.admin, rangeOf(agent.id, 'root-community'));
    const queue = await ok('POST', '/api/queues', t.admin, queueOf(agent.id, 'root-queue-password'));
    await ok('PUT', `/api/network-ranges/${range.id}`, adminA, rangeOf(agent.id, 'a-new-community'));
    await ok('PUT', `/api/queues/${queue.id}`, adminA, queueOf(agent.id, 'a-new-password'));
    const mine = await ok('POST', `/api/agents/${agent.id}/regenerate-token`, adminA);
    const config = await configOf(mine.token);
    expect(config).toContain('a-new-community');
    expect(config).not.toContain('root-');
  });

  it("the default admin's secrets do not move to an agent whose token the location admin holds", async () => {
    const held = await agentBy(adminA);
    const agent = await agentBy(t.admin);
    const range = await ok('POST', '/api/network-ranges', t.admin, rangeOf(agent.id, 'root-community'));
    const queue = await ok('POST', '/api/queues', t.admin, queueOf(agent.id, 'root-queue-password'));
    const toHeld = await call('PUT', `/api/network-ranges/${range.id}`, adminA, { ...rangeOf(held.id, 'x'), community: null });
    expect(toHeld.statusCode, toHeld.body).toBe(422);
    const queueToHeld = await call('PUT', `/api/queues/${queue.id}`, adminA, { ...queueOf(held.id, 'x'), password: null });
    expect(queueToHeld.statusCode, queueToHeld.body).toBe(422);
    // Nor by deleting the agent: its range waits without one, and goes to another only with its community.
    expect((await call('DELETE', `/api/agents/${agent.id}`, adminA)).statusCode).toBe(204);
    const orphan = await call('PUT', `/api/network-ranges/${range.id}`, adminA, { ...rangeOf(held.id, 'x'), community: null });
    expect(orphan.statusCode, orphan.body).toBe(422);
    expect(await configOf(held.token)).not.toContain('root-');
  });
});
