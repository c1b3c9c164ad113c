import { expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { DEFAULT_ROLES, ROLE_CODES, type Grant, type RoleCode } from '@pagewatch/contracts/grants';
import { bearer, signIn } from './test-app.ts';
import { agentAt, callerAt, rangePayload, unique, type Caller, type World } from './authorization-world.ts';

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

/**
 * The "secrets reach" row (issue 52): every route that returns or forwards a stored secret, for
 * each role at each location (DEFAULT, IN, IN_CHILD, OUT). An agent token reads its ranges' and
 * queues' secrets in clear, so a new one is minted only for a caller who reaches whoever set
 * them (root at DEFAULT, or an ADMIN of IN), and the agent; the channels and SMTP forward theirs
 * for the default administrator alone; no answer holds a secret; an API token gets none of them
 * (those routes are session only). A refused renewal leaves the token as it was.
 */
export function secretReachCases(world: World, viaApiToken: boolean) {
  const places = ['DEFAULT', 'IN', 'IN_CHILD', 'OUT'] as const;
  type Place = (typeof places)[number];
  const reaches: Record<Place, Place[]> = { DEFAULT: [...places], IN: ['IN', 'IN_CHILD'], IN_CHILD: ['IN_CHILD'], OUT: ['OUT'] };
  const holds = (role: RoleCode, grant: Grant) => DEFAULT_ROLES[role].grants.includes(grant);
  const inject = (method: 'GET' | 'POST', url: string, token: string) => world.app.inject({ method, url, headers: bearer(token) });

  let setterAtIn: Promise<Caller> | null = null;
  /** The secrets of an agent at IN_CHILD, set by `setter`'s session: a range's community, and a queue's password (not in cloud mode below DEFAULT, where queues are the operators'). */
  const agentWithSecrets = async (setter: 'DEFAULT' | 'IN') => {
    const agent = await agentAt(world, world.loc.IN_CHILD);
    const token = setter === 'DEFAULT' ? world.root : (await (setterAtIn ??= callerAt(world, 'ADMIN', world.loc.IN, unique('reachsetter')))).token;
    const secrets = [`reach-${unique('community')}`];
    const make = async (url: string, payload: object) => {
      const res = await world.app.inject({ method: 'POST', url, payload, headers: bearer(token) });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().id as number;
    };
    const range = await make('/api/network-ranges', { ...rangePayload(world.loc.IN_CHILD), community: secrets[0], agent: { id: agent } });
    let queue: number | null = null;
    if (setter === 'DEFAULT' || !world.cloud) {
      secrets.push(`reach-${unique('password')}`);
      queue = await make('/api/queues', { type: 'IPP', agent: { id: agent }, host: 'cups.reach.local', port: 631, url: '/printers/reach', password: secrets[1] });
    }
    return { agent, range, queue, secrets };
  };
  const tokenHash = async (agent: number) => (await world.ctx.db.execute(sql`SELECT token_hash FROM agents WHERE id = ${agent}`)).rows[0];

  let smtpSet: Promise<unknown> | null = null;
  let channel: Promise<number> | null = null;
  const SMTP_SECRET = 'reach-smtp-password';
  const CHANNEL_SECRET = 'reach-channel-signing-key';

  for (const role of ROLE_CODES) {
    for (const at of places) {
      it(`secrets reach: ${role} at ${at}${viaApiToken ? ' (API token)' : ''}`, async () => {
        const caller = await callerAt(world, role, world.loc[at], unique(`reach${role.toLowerCase()}`), viaApiToken);
        const defaultAdmin = at === 'DEFAULT' && holds(role, 'MNU_SETTINGS.EDIT');

        // Agent config: a new token of an agent whose secrets root, or an ADMIN of IN, set.
        for (const setter of ['DEFAULT', 'IN'] as const) {
          const fixture = await agentWithSecrets(setter);
          const before = await tokenHash(fixture.agent);
          const res = await inject('POST', `/api/agents/${fixture.agent}/regenerate-token`, caller.token);
          const allowed = !viaApiToken && holds(role, 'MNU_AGENTS.EDIT') && reaches[at].includes(setter) && reaches[at].includes('IN_CHILD');
          const what = `${role} at ${at}, secrets set at ${setter}: ${res.body}`;
          for (const secret of fixture.secrets) expect(res.body, what).not.toContain(secret);
          if (allowed) {
            expect(res.statusCode, what).toBe(200);
            const config = await inject('GET', '/api/agent/config', res.json().token);
            for (const secret of fixture.secrets) expect(config.body).toContain(secret);
          } else {
            expect([403, 404], what).toContain(res.statusCode);
            expect(await tokenHash(fixture.agent), what).toEqual(before);
          }
          // The range and the queue say only that their secrets are set.
          for (const url of [`/api/network-ranges/${fixture.range}`, ...(fixture.queue ? [`/api/queues/${fixture.queue}`] : [])]) {
            const read = await inject('GET', url, caller.token);
            for (const secret of fixture.secrets) expect(read.body, `${url}: ${read.body}`).not.toContain(secret);
          }
        }

        // SMTP: its password is forwarded to the SMTP server by the test mail, the default admin's alone.
        await (smtpSet ??= world.asRoot('PUT', '/api/settings', [{ code: 'SMTP_PASSWORD', stringValue: SMTP_SECRET }]));
        expect((await inject('GET', '/api/settings/', caller.token)).body).not.toContain(SMTP_SECRET);
        const mail = await world.app.inject({ method: 'POST', url: '/api/settings/test-email', payload: { to: 'reach@example.com' }, headers: bearer(caller.token) });
        if (defaultAdmin && !viaApiToken) expect(mail.statusCode, mail.body).not.toBe(403);
        else expect(mail.statusCode, mail.body).toBe(403);

        // A channel's signing key: forwarded by its test message, the default admin's alone.
        const id = await (channel ??= world.asRoot('POST', '/api/settings/notification-channels', { kind: 'WEBHOOK', name: unique('reach'), target: 'http://127.0.0.1:9/hook', secret: CHANNEL_SECRET, enabled: true, allowInternal: true }).then((c) => c.id as number));
        for (const url of ['/api/settings/notification-channels', `/api/settings/notification-channels/${id}`, '/api/notification-channels']) {
          expect((await inject('GET', url, caller.token)).body).not.toContain(CHANNEL_SECRET);
        }
        const test = await inject('POST', `/api/settings/notification-channels/${id}/test`, caller.token);
        if (defaultAdmin && !viaApiToken) expect(test.statusCode, test.body).not.toBe(403);
        else expect(test.statusCode, test.body).toBe(403);
      });
    }
  }
}
