import { expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { DEFAULT_ROLES, ROLE_CODES, type Grant, type RoleCode } from '@pagewatch/contracts/grants';
import { bearer, signIn } from './test-app.ts';
import { agentAt, rangePayload, type Caller, type World } from './authorization-world.ts';

/**
 * Write-only secrets captured by redirection (issue 39): a caller who may edit a network range or
 * a print queue without knowing its community or password must not send them anywhere else. A
 * changed destination without the secret is 422 SECRET_REQUIRED; an object whose owner (its
 * location, or the agent that reads it) is outside the caller's locations is 403/404 whatever
 * is sent; nor may the caller renew the token of its agent that scans a range owned above it.
 * Each refusal leaves the stored row as it was. Run by the matrix in both modes.
 */
export function secretRedirectionCases(world: World, callers: Record<RoleCode, Caller>) {
  const holders = (grant: Grant) => ROLE_CODES.filter((r) => DEFAULT_ROLES[r].grants.includes(grant));
  const put = (url: string, payload: object, token: string) => world.app.inject({ method: 'PUT', url, payload, headers: bearer(token) });
  const rangeRow = async (id: number) =>
    (await world.ctx.db.execute(sql`SELECT ip_from, ip_to, port, community, agent_id, location_id FROM network_ranges WHERE id = ${id}`)).rows[0];
  const queueRow = async (id: number) => (await world.ctx.db.execute(sql`SELECT host, port, url, password, agent_id FROM queues WHERE id = ${id}`)).rows[0];

  /** A range at `locationId` scanned by a fresh agent at `agentLocation`, with a community only root knows. */
  const range = async (locationId: number, agentLocation: number) => {
    const agent = await agentAt(world, agentLocation);
    const payload = { ...rangePayload(locationId), community: 'matrix-secret', agent: { id: agent } };
    return { id: (await world.asRoot('POST', '/api/network-ranges', payload)).id as number, payload, agent };
  };

  for (const role of holders('MNU_NETWORK_RANGES.EDIT')) {
    it(`${role}: a range's community goes to new addresses only when given again, and never from a range or agent outside`, async () => {
      const token = callers[role].token;
      const own = await range(world.loc.IN_CHILD, world.loc.IN_CHILD);
      const before = await rangeRow(own.id);
      const moved = { ...own.payload, from: '10.250.0.1', to: '10.250.0.9' };
      const refused = await put(`/api/network-ranges/${own.id}`, { ...moved, community: null }, token);
      expect(refused.statusCode, refused.body).toBe(422);
      expect(refused.json()).toMatchObject({ code: 'SECRET_REQUIRED', details: [{ field: 'community' }] });
      expect(await rangeRow(own.id)).toEqual(before);
      expect((await put(`/api/network-ranges/${own.id}`, { ...moved, community: 'caller-secret' }, token)).statusCode).toBe(200);

      // Scanned by an agent of a location above the caller's: not the caller's to keep or move.
      const parents = await range(world.loc.IN_CHILD, world.loc.DEFAULT);
      const parentsBefore = await rangeRow(parents.id);
      const kept = await put(`/api/network-ranges/${parents.id}`, { ...parents.payload, name: 'renamed' }, token);
      expect(kept.statusCode, kept.body).toBe(403);
      const toOwnAgent = { ...parents.payload, agent: { id: await agentAt(world, world.loc.IN_CHILD) } };
      const grabbed = await put(`/api/network-ranges/${parents.id}`, { ...toOwnAgent, community: null }, token);
      expect(grabbed.statusCode, grabbed.body).toBe(422);
      expect(await rangeRow(parents.id)).toEqual(parentsBefore);

      // Owned outside the caller's locations (above or beside): 403/404, the community given or not.
      for (const at of [world.loc.DEFAULT, world.loc.OUT]) {
        const other = await range(at, world.loc.IN_CHILD);
        const otherBefore = await rangeRow(other.id);
        for (const community of [null, 'caller-secret']) {
          const res = await put(`/api/network-ranges/${other.id}`, { ...other.payload, location: { id: world.loc.IN_CHILD }, from: '127.0.0.11', community }, token);
          expect([403, 404], res.body).toContain(res.statusCode);
        }
        expect(await rangeRow(other.id)).toEqual(otherBefore);
      }
    });
  }

  for (const role of holders('MNU_AGENTS.EDIT')) {
    it(`${role}: no new token for an agent of its locations that scans a range owned above them`, async () => {
      const token = callers[role].token;
      const parents = await range(world.loc.DEFAULT, world.loc.IN_CHILD);
      const agent = parents.agent;
      const hash = async () => (await world.ctx.db.execute(sql`SELECT token_hash FROM agents WHERE id = ${agent}`)).rows[0];
      const before = await hash();
      const res = await world.app.inject({ method: 'POST', url: `/api/agents/${agent}/regenerate-token`, headers: bearer(token) });
      expect(res.statusCode, res.body).toBe(403);
      expect(await hash()).toEqual(before);
      // Its own range, whose community it set itself (a session: an API token renews none, issue 52).
      const ownAgent = await agentAt(world, world.loc.IN_CHILD);
      const session = await signIn(world.app, callers[role].login, callers[role].password);
      const made = await world.app.inject({ method: 'POST', url: '/api/network-ranges', payload: { ...rangePayload(world.loc.IN_CHILD), agent: { id: ownAgent } }, headers: bearer(session) });
      expect(made.statusCode, made.body).toBe(200);
      const ok = await world.app.inject({ method: 'POST', url: `/api/agents/${ownAgent}/regenerate-token`, headers: bearer(session) });
      expect(ok.statusCode, ok.body).toBe(200);
    });
  }

  for (const role of holders('MNU_QUEUES.EDIT')) {
    it(`${role}: a queue's password goes to a new host only when given again${world.cloud ? ' (cloud: the queues are the operators\' alone)' : ''}`, async () => {
      const token = callers[role].token;
      const payload = { type: 'IPP', agent: { id: await agentAt(world, world.loc.IN_CHILD) }, host: 'cups.matrix.local', port: 631, url: '/printers/matrix', password: 'matrix-secret' };
      const id = (await world.asRoot('POST', '/api/queues', payload)).id as number;
      const before = await queueRow(id);
      const moved = { ...payload, host: 'collector.matrix.net', password: null };
      const refused = await put(`/api/queues/${id}`, moved, token);
      if (world.cloud) {
        expect(refused.statusCode, refused.body).toBe(403);
      } else {
        expect(refused.statusCode, refused.body).toBe(422);
        expect(refused.json()).toMatchObject({ code: 'SECRET_REQUIRED', details: [{ field: 'password' }] });
      }
      expect(await queueRow(id)).toEqual(before);
      // To an agent outside the caller's locations: refused with the password too.
      const away = await put(`/api/queues/${id}`, { ...payload, agent: { id: await agentAt(world, world.loc.OUT) } }, token);
      expect(away.statusCode, away.body).toBe(403);
      expect(await queueRow(id)).toEqual(before);
      const again = await put(`/api/queues/${id}`, { ...moved, password: 'caller-secret' }, token);
      expect(again.statusCode, again.body).toBe(world.cloud ? 403 : 200);
    });
  }
}
