import { beforeAll, describe, expect, it } from 'vitest';
import { maskPrefix, rangeSize } from '@pagewatch/contracts/network-ranges';
import { bearer, signedInAs, testApp } from '../../test/test-app.ts';
import { expectFieldErrors } from '../../test/bad-input.ts';
import { createAgent } from '../ingest/ingest.fixtures.ts';

const t = testApp();
let agentId: number;
let agentToken: string;

beforeAll(async () => {
  ({ agentId, token: agentToken } = await createAgent(t.app, t.admin, { name: 'Ranges agent' }));
});

const base = () => ({ type: 'NETMASK', address: '10.1.0.0', mask: '255.255.255.0', port: 161, snmpVersion: '2c', community: 'public', agent: { id: agentId } });
const create = (payload: object, lang = 'en') =>
  t.app.inject({ method: 'POST', url: '/api/network-ranges', headers: { ...bearer(t.admin), 'accept-language': lang }, payload });

describe('masks and sizes', () => {
  it('reads dotted and prefix masks', () => {
    expect(maskPrefix('255.255.255.0')).toBe(24);
    expect(maskPrefix('/24')).toBe(24);
    expect(maskPrefix('16')).toBe(16);
    expect(maskPrefix('255.0.255.0')).toBeNull();
    expect(maskPrefix('/33')).toBeNull();
    expect(maskPrefix('255.255.255.256')).toBeNull();
    expect(rangeSize({ type: 'RANGE', from: '10.0.0.1', to: '10.0.1.0' })).toBe(256);
    expect(rangeSize({ type: 'NETMASK', mask: '/16' })).toBe(65_536);
  });
});

describe('network ranges API', () => {
  it('needs MNU_NETWORK_RANGES', async () => {
    expect((await t.app.inject({ url: '/api/network-ranges' })).statusCode).toBe(401);
    const loc = (await t.app.inject({ url: '/api/user-locations/', headers: bearer(t.admin) })).json().pageRows[0].id;
    const op = await signedInAs(t, { login: 'op-ranges', role: 'OPERATOR', locationIds: [loc] });
    expect((await t.app.inject({ url: '/api/network-ranges', headers: bearer(op) })).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/network-ranges', headers: bearer(agentToken) })).statusCode).toBe(401);
  });

  it('creates each type and lists them', async () => {
    for (const payload of [
      { ...base(), type: 'BROADCAST', address: '10.1.0.255', mask: null },
      { ...base(), mask: '/24' },
      { ...base(), type: 'RANGE', address: null, mask: null, from: '10.2.0.1', to: '10.2.0.254', port: 1161 },
    ]) {
      const res = await create(payload);
      expect(res.statusCode, res.body).toBe(200);
    }
    for (const url of ['/api/network-ranges', '/api/network-ranges-v', '/api/network-ranges/page']) {
      const list = await t.app.inject({ url: `${url}?page=20,1&sort=id,ASC`, headers: bearer(t.admin) });
      expect(list.statusCode).toBe(200);
      expect(list.json().pageRows.map((r: { type: string }) => r.type)).toEqual(['BROADCAST', 'NETMASK', 'RANGE']);
      expect(list.json().pageRows[2]).toMatchObject({ from: '10.2.0.1', to: '10.2.0.254', port: 1161, agentName: 'Ranges agent' });
    }
    const cfg = (await t.app.inject({ url: '/api/agent/config', headers: bearer(agentToken) })).json();
    expect(cfg.ranges).toHaveLength(3);
    expect(cfg.ranges[2]).toMatchObject({ type: 'RANGE', from: '10.2.0.1', to: '10.2.0.254', port: 1161, snmp: { version: '2c', community: 'public' } });
  });

  it('keeps each range\'s discovery packet cap (default 5000) and sends it to the agent with the range', async () => {
    const made = (await create({ ...base(), type: 'RANGE', address: null, mask: null, from: '10.3.0.1', to: '10.3.255.254' })).json();
    expect(made.packetsPerSecond).toBe(5000);
    const capped = (await create({ ...base(), type: 'RANGE', address: null, mask: null, from: '10.4.0.1', to: '10.4.0.254', packetsPerSecond: 200 })).json();
    expect(capped.packetsPerSecond).toBe(200);
    // An edit without the field keeps the stored cap.
    const again = { ...base(), type: 'RANGE', address: null, mask: null, from: '10.4.0.1', to: '10.4.0.254' };
    const kept = await t.app.inject({ method: 'PUT', url: `/api/network-ranges/${capped.id}`, headers: bearer(t.admin), payload: again });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().packetsPerSecond).toBe(200);
    const cfg = (await t.app.inject({ url: '/api/agent/config', headers: bearer(agentToken) })).json();
    const sent = cfg.ranges.filter((r: { from: string }) => r.from === '10.3.0.1' || r.from === '10.4.0.1').map((r: { packetsPerSecond: number }) => r.packetsPerSecond);
    expect(sent).toEqual([5000, 200]);
  });

  it('refuses bad addresses, masks, ranges and ports with messages naming the field', async () => {
    const cases: [object, string, RegExp][] = [
      [{ ...base(), address: '10.1.0.300' }, 'address', /IPv4/],
      [{ ...base(), address: '' }, 'address', /Required/],
      [{ ...base(), mask: '255.0.255.0' }, 'mask', /mask/],
      [{ ...base(), mask: '/33' }, 'mask', /mask/],
      [{ ...base(), mask: '/8' }, 'mask', /65536/],
      [{ ...base(), type: 'RANGE', from: '10.0.0.10', to: '10.0.0.1' }, 'to', /before/],
      [{ ...base(), type: 'RANGE', from: '10.0.0.0', to: '10.2.0.0' }, 'to', /65536/],
      [{ ...base(), type: 'RANGE', from: 'x', to: '10.0.0.1' }, 'from', /IPv4/],
      [{ ...base(), port: 0 }, 'port', /65535/],
      [{ ...base(), port: 70000 }, 'port', /65535/],
      [{ ...base(), packetsPerSecond: 9 }, 'packetsPerSecond', /10 to 100000/],
      [{ ...base(), packetsPerSecond: 100_001 }, 'packetsPerSecond', /10 to 100000/],
      [{ ...base(), packetsPerSecond: 2.5 }, 'packetsPerSecond', /whole number/],
      [{ ...base(), community: null }, 'community', /Required/],
      [{ ...base(), snmpVersion: '3', v3User: 'u', v3Level: 'authPriv', v3AuthProtocol: 'sha', authKey: 'short', v3PrivProtocol: 'aes', privKey: 'longenough' }, 'authKey', /8/],
      [{ ...base(), snmpVersion: '3', v3User: 'u', v3Level: 'authNoPriv', v3AuthProtocol: 'sha' }, 'authKey', /Required/],
    ];
    await expectFieldErrors((payload) => create(payload), cases, { namedInMessage: true });
    const ru = await create({ ...base(), mask: '255.0.255.0' }, 'ru');
    expect(ru.json().details[0].message).toMatch(/маску/);
    const ruRate = await create({ ...base(), packetsPerSecond: 1 }, 'ru');
    expect(ruRate.json().details[0]).toEqual({ field: 'packetsPerSecond', message: 'Пакетов в секунду: целое число от 10 до 100000' });
  });

  it('never returns the community, and keeps it when not sent again', async () => {
    const res = await create({ ...base(), community: 'c0mmunity-secret' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).not.toContain('c0mmunity-secret');
    expect(res.json().communitySet).toBe(true);
    const id = res.json().id;
    const list = await t.app.inject({ url: '/api/network-ranges?page=100,1', headers: bearer(t.admin) });
    expect(list.body).not.toContain('c0mmunity-secret');
    const put = await t.app.inject({ method: 'PUT', url: `/api/network-ranges/${id}`, headers: bearer(t.admin), payload: { ...base(), community: null, name: 'Renamed' } });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.body).not.toContain('c0mmunity-secret');
    const cfg = (await t.app.inject({ url: '/api/agent/config', headers: bearer(agentToken) })).json();
    expect(cfg.ranges.find((r: { id: number }) => r.id === id).snmp).toMatchObject({ version: '2c', community: 'c0mmunity-secret' });
  });

  it('never returns SNMP v3 keys, and keeps them when not sent again', async () => {
    const v3 = { ...base(), snmpVersion: '3', community: null, v3User: 'monitor', v3Level: 'authPriv', v3AuthProtocol: 'sha', authKey: 'auth-secret-1', v3PrivProtocol: 'aes', privKey: 'priv-secret-1' };
    const res = await create(v3);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).not.toContain('secret-1');
    expect(res.json()).toMatchObject({ authKeySet: true, privKeySet: true, v3User: 'monitor' });
    const id = res.json().id;
    const one = await t.app.inject({ url: `/api/network-ranges/${id}`, headers: bearer(t.admin) });
    expect(one.body).not.toContain('secret-1');
    const list = await t.app.inject({ url: '/api/network-ranges?page=100,1', headers: bearer(t.admin) });
    expect(list.body).not.toContain('secret-1');
    const put = await t.app.inject({ method: 'PUT', url: `/api/network-ranges/${id}`, headers: bearer(t.admin), payload: { ...v3, authKey: null, privKey: undefined, v3User: 'monitor2' } });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.body).not.toContain('secret-1');
    expect(put.json()).toMatchObject({ authKeySet: true, privKeySet: true, v3User: 'monitor2' });
    // The agent gets them: it needs them to poll.
    const cfg = (await t.app.inject({ url: '/api/agent/config', headers: bearer(agentToken) })).json();
    expect(cfg.ranges.find((r: { id: number }) => r.id === id).snmp).toMatchObject({ version: '3', authKey: 'auth-secret-1', privKey: 'priv-secret-1' });
    // A level without privacy drops the privacy key.
    const lower = await t.app.inject({ method: 'PUT', url: `/api/network-ranges/${id}`, headers: bearer(t.admin), payload: { ...v3, v3Level: 'authNoPriv', authKey: null, privKey: null } });
    expect(lower.json()).toMatchObject({ authKeySet: true, privKeySet: false });
  });

  it('sends the stored community and v3 keys to no other addresses: new addresses, port or agent need them again (422), and nothing changes until then', async () => {
    const other = await createAgent(t.app, t.admin, { name: 'Ranges agent 2' });
    const put = (id: number, payload: object, lang = 'en') =>
      t.app.inject({ method: 'PUT', url: `/api/network-ranges/${id}`, headers: { ...bearer(t.admin), 'accept-language': lang }, payload });
    const stored = async (id: number) => (await t.app.inject({ url: '/api/agent/config', headers: bearer(agentToken) })).json().ranges.find((r: { id: number }) => r.id === id);
    const id = (await create({ ...base(), community: 'c0mmunity-secret' })).json().id;
    const before = await stored(id);
    expect(before).toMatchObject({ address: '10.1.0.0', mask: '255.255.255.0', port: 161, snmp: { community: 'c0mmunity-secret' } });
    const moves = [{ address: '10.66.0.0' }, { mask: '/16' }, { type: 'BROADCAST' }, { type: 'RANGE', from: '10.66.0.1', to: '10.66.0.9' }, { port: 1161 }, { agent: { id: other.agentId } }];
    for (const move of moves) {
      const res = await put(id, { ...base(), community: null, ...move });
      expect(res.statusCode, `${JSON.stringify(move)}: ${res.body}`).toBe(422);
      expect(res.json()).toMatchObject({ code: 'SECRET_REQUIRED', details: [{ field: 'community', message: expect.stringMatching(/addresses.* changed: enter the community again/) }] });
      expect(await stored(id), JSON.stringify(move)).toEqual(before);
    }
    expect((await t.app.inject({ url: '/api/agent/config', headers: bearer(other.token) })).json().ranges).toEqual([]);
    expect((await put(id, { ...base(), community: null, port: 1161 }, 'ru')).json().details[0].message).toMatch(/^Адреса, порт или агент диапазона изменены: введите community заново/);
    // The same network written another way is no move; with the community given again it moves.
    expect((await put(id, { ...base(), community: null, mask: '/24' })).statusCode).toBe(200);
    expect((await put(id, { ...base(), community: 'n3w-community', port: 1161 })).json()).toMatchObject({ port: 1161, communitySet: true });
    expect((await stored(id)).snmp).toMatchObject({ community: 'n3w-community' });
    // A range no agent scans sends its community nowhere: it changes freely, and choosing its agent again is a move.
    expect((await put(id, { ...base(), community: null, agent: null, location: { id: 1 }, address: '10.66.0.0' })).statusCode).toBe(200);
    expect((await put(id, { ...base(), community: null, address: '10.66.0.0' })).json()).toMatchObject({ code: 'SECRET_REQUIRED', details: [{ field: 'community' }] });

    const v3 = { ...base(), snmpVersion: '3', community: null, v3User: 'monitor', v3Level: 'authPriv', v3AuthProtocol: 'sha', authKey: 'auth-secret-2', v3PrivProtocol: 'aes', privKey: 'priv-secret-2' };
    const v3Id = (await create(v3)).json().id;
    const v3Before = await stored(v3Id);
    const keyless = await put(v3Id, { ...v3, authKey: null, privKey: null, address: '10.66.0.0' });
    expect(keyless.statusCode, keyless.body).toBe(422);
    expect(keyless.json().details.map((d: { field: string }) => d.field)).toEqual(['authKey', 'privKey']);
    expect(await stored(v3Id)).toEqual(v3Before);
    const half = await put(v3Id, { ...v3, privKey: null, address: '10.66.0.0' });
    expect(half.json().details.map((d: { field: string }) => d.field)).toEqual(['privKey']);
    expect((await put(v3Id, { ...v3, address: '10.66.0.0' })).statusCode).toBe(200);
  });

  it('updates, deletes, and 404s', async () => {
    const res = await create(base());
    const id = res.json().id;
    const put = await t.app.inject({ method: 'PUT', url: `/api/network-ranges/${id}`, headers: bearer(t.admin), payload: { ...base(), type: 'RANGE', from: '10.9.0.1', to: '10.9.0.2' } });
    expect(put.json()).toMatchObject({ type: 'RANGE', address: null, mask: null, from: '10.9.0.1', addressCount: 2 });
    expect((await t.app.inject({ method: 'DELETE', url: `/api/network-ranges/${id}`, headers: bearer(t.admin) })).statusCode).toBe(204);
    expect((await t.app.inject({ url: `/api/network-ranges/${id}`, headers: bearer(t.admin) })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/network-ranges/abc', headers: bearer(t.admin) })).statusCode).toBe(400);
  });
});
