import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startDeviceWebRelay } from '@pagewatch/agent/device-web-relay';
import { createHttpTransport } from '@pagewatch/agent/transport';
import { bearer, signedInAs, testApp } from '../../test/test-app.ts';
import { addLocation } from '../../test/scope-fixture.ts';
import { sqlRows } from '../../test/sql-rows.ts';
import { createAgent } from '../ingest/ingest.fixtures.ts';
import { directTransport, ensureBuiltinAgent } from '../agents/builtin-agent.ts';

/**
 * The device's own web page through its agent (issue 55): a small HTTP server stands for a
 * printer's page on 127.a.b.10:8080 and another host beside it on 127.a.b.11:8080, which nothing
 * may reach. One standalone agent (HTTP long poll) and the built-in one (direct calls) carry it.
 */
const t = testApp({ webSocket: true });
const net = `127.${20 + Math.floor(Math.random() * 200)}.${1 + Math.floor(Math.random() * 250)}`;
const printerIp = `${net}.10`;
const otherIp = `${net}.11`;
const seen: IncomingMessage[] = [];
const otherHits: string[] = [];
const servers: Server[] = [];
const relays: { stop(): Promise<void> }[] = [];
let boss: string;
let operator: string;
let stranger: string;
let mine: number;
let theirs: number;
let builtinDevice: number;

function printerPage(req: IncomingMessage, res: import('node:http').ServerResponse) {
  seen.push(req);
  const url = req.url ?? '/';
  if (url === '/') {
    res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': 'EWS_SID=s3cr3t; Path=/; HttpOnly', 'content-security-policy': "default-src *" });
    return res.end('<html><body><a href="/status">Status</a><img src="/logo.png"><a href="//elsewhere/x">x</a></body></html>');
  }
  if (url === '/echo') {
    res.writeHead(200, { 'content-type': 'application/json' });
    return res.end(JSON.stringify({ method: req.method, url, headers: req.headers }));
  }
  if (url === '/in') return res.writeHead(302, { location: '/status?x=1' }).end();
  if (url === '/out') return res.writeHead(302, { location: `http://${otherIp}:8080/` }).end();
  if (url === '/port') return res.writeHead(302, { location: `http://${printerIp}:9100/` }).end();
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end(`page ${url}`);
}

const listen = (server: Server, host: string) => new Promise<void>((resolve, reject) => {
  server.once('error', reject);
  server.listen(8080, host, () => resolve());
});

const device = async (locationId: number, serial: string, ip: string, agentId: number) => {
  const [d] = await sqlRows<{ id: number }>(t.ctx.db, sql`INSERT INTO devices (location_id, ip, serial_number, model_code, agent_id) VALUES (${locationId}, ${ip}, ${serial}, 'M', ${agentId}) RETURNING id`);
  return Number(d.id);
};
const open = (token: string, id: number, port = 8080, lang = 'en') =>
  t.app.inject({ method: 'POST', url: `/api/devices/${id}/web-sessions`, payload: { port }, headers: { ...bearer(token), 'accept-language': lang } });
const page = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'POST' = 'GET', payload?: string) =>
  t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
const httpBase = () => t.wsUrl.replace(/^ws/, 'http').replace(/\/ws$/, '');

beforeAll(async () => {
  const printer = createServer(printerPage);
  const other = createServer((req, res) => {
    otherHits.push(req.url ?? '');
    res.end('other host');
  });
  servers.push(printer, other);
  await listen(printer, printerIp);
  await listen(other, otherIp);

  const here = await addLocation(t.ctx.db, 'DW_HERE');
  const there = await addLocation(t.ctx.db, 'DW_THERE');
  boss = await signedInAs(t, { login: 'dw_boss', role: 'ADMIN', locationIds: [here] });
  operator = await signedInAs(t, { login: 'dw_op', role: 'OPERATOR', locationIds: [here] });
  stranger = await signedInAs(t, { login: 'dw_other', role: 'ADMIN', locationIds: [there] });
  // A standalone agent of HERE, over HTTP to the listening server, and the built-in agent.
  const agent = await createAgent(t.app, t.admin, { locationId: here });
  const farAgent = await createAgent(t.app, t.admin, { locationId: there, name: 'Far' });
  mine = await device(here, 'DW-1', printerIp, agent.agentId);
  theirs = await device(there, 'DW-2', printerIp, farAgent.agentId);
  const builtin = await ensureBuiltinAgent(t.ctx);
  const [{ id: defaultId }] = await sqlRows<{ id: number }>(t.ctx.db, sql`SELECT id FROM locations WHERE code = 'DEFAULT'`);
  builtinDevice = await device(Number(defaultId), 'DW-3', printerIp, builtin);
  relays.push(startDeviceWebRelay({ transport: createHttpTransport({ serverUrl: httpBase(), token: agent.token }) as never, allowLoopback: true }));
  relays.push(startDeviceWebRelay({ transport: directTransport(t.ctx, builtin), allowLoopback: true }));
});

afterAll(async () => {
  await Promise.all(relays.map((r) => r.stop()));
  for (const s of servers) s.close();
});

describe("the device's web page through its agent", () => {
  it('opens from the card, proxies the page under the session path with a sandbox CSP, keeps the printer\'s cookies per session, and logs every request', async () => {
    const res = await open(boss, mine);
    expect(res.statusCode, res.body).toBe(200);
    const session = res.json();
    expect(session.url).toMatch(/^\/device-web\/[A-Za-z0-9_-]{43}\/$/);
    expect(new Date(session.expiresAt).getTime() - Date.now()).toBeLessThanOrEqual(30 * 60_000);

    const first = await page(session.url);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['content-security-policy']).toMatch(/^sandbox allow-scripts allow-forms/);
    expect(first.headers['content-security-policy']).not.toContain('allow-same-origin');
    expect(first.headers['referrer-policy']).toBe('no-referrer');
    expect(first.headers['set-cookie']).toBeUndefined();
    // Root-relative links stay in the session; a link to another host is left to the CSP.
    expect(first.body).toContain(`href="${session.url}status"`);
    expect(first.body).toContain(`src="${session.url}logo.png"`);
    expect(first.body).toContain('href="//elsewhere/x"');

    // The console's credentials never reach the printer; the printer's cookie, kept by the server, does.
    const echo = await page(`${session.url}echo`, { cookie: 'pagewatch_device=console; EWS_SID=forged', authorization: `Bearer ${boss}`, 'x-forwarded-for': '10.9.9.9' });
    expect(echo.statusCode, echo.body).toBe(200);
    const headers = echo.json().headers as Record<string, string>;
    expect(headers.cookie).toBe('EWS_SID=s3cr3t');
    expect(headers.authorization).toBeUndefined();
    expect(headers['x-forwarded-for']).toBeUndefined();
    expect(headers.host).toBe(`${printerIp}:8080`);
    expect(JSON.stringify(headers)).not.toContain(boss);

    const posted = await page(`${session.url}form?a=1`, { 'content-type': 'application/x-www-form-urlencoded' }, 'POST', 'name=value');
    expect(posted.body).toBe('page /form?a=1');

    const logs = await sqlRows<{ user: string; message: string }>(t.ctx.db, sql`
      SELECT u.login AS user, e.message FROM event_logs e JOIN users u ON u.id = e.user_id
      WHERE e.object_class = 'DeviceDao' AND e.object_id = ${mine} AND e.message_code = 'device.webRequest' ORDER BY e.id`);
    expect(logs.map((l) => l.user)).toEqual(['dw_boss', 'dw_boss', 'dw_boss']);
    expect(logs.map((l) => l.message)).toEqual([
      `dw_boss web page of DW-1 (session ${session.id}): GET /`,
      `dw_boss web page of DW-1 (session ${session.id}): GET /echo`,
      `dw_boss web page of DW-1 (session ${session.id}): POST /form?a=1`,
    ]);
  });

  it('carries the built-in agent\'s devices too, and keeps each session\'s cookies apart', async () => {
    const one = (await open(t.admin, builtinDevice)).json();
    const two = (await open(t.admin, builtinDevice)).json();
    expect((await page(one.url)).statusCode).toBe(200);
    expect((await page(`${one.url}echo`)).json().headers.cookie).toBe('EWS_SID=s3cr3t');
    expect((await page(`${two.url}echo`)).json().headers.cookie).toBeUndefined();
  });

  it('keeps redirects on the device: its own paths under the session, another host or port refused', async () => {
    const { url } = (await open(boss, mine)).json();
    const inside = await page(`${url}in`);
    expect(inside.statusCode).toBe(302);
    expect(inside.headers.location).toBe(`${url}status?x=1`);
    for (const away of ['out', 'port']) {
      const res = await page(`${url}${away}`);
      expect(res.statusCode, away).toBe(502);
      expect(res.headers.location).toBeUndefined();
    }
    expect(otherHits).toEqual([]);
  });

  it('refuses what an attacker tries: no grant, another location, another user\'s session, closed, expired, ended console session', async () => {
    expect((await t.app.inject({ method: 'POST', url: `/api/devices/${mine}/web-sessions`, payload: {} })).statusCode).toBe(401);
    expect((await open(operator, mine)).statusCode).toBe(403);
    expect((await open(stranger, mine)).statusCode).toBe(403);
    expect((await open(boss, theirs)).statusCode).toBe(403);
    const bad = await open(boss, mine, 22, 'ru');
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('port');
    expect(bad.json().message).toContain('Порт должен быть 80, 443 или 8080');

    const session = (await open(boss, mine)).json();
    expect((await page(session.url)).statusCode).toBe(200);
    // Another user can neither close it nor see it.
    expect((await t.app.inject({ method: 'DELETE', url: `/api/device-web-sessions/${session.id}`, headers: bearer(stranger) })).statusCode).toBe(404);
    const mineToo = await signedInAs(t, { login: 'dw_boss2', role: 'ADMIN', locationIds: [(await sqlRows<{ id: number }>(t.ctx.db, sql`SELECT location_id AS id FROM devices WHERE id = ${mine}`))[0].id] });
    expect((await t.app.inject({ method: 'DELETE', url: `/api/device-web-sessions/${session.id}`, headers: bearer(mineToo) })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/api/devices/${mine}/web-sessions`, headers: bearer(mineToo) })).json()).toEqual([]);
    expect((await t.app.inject({ url: `/api/devices/${mine}/web-sessions`, headers: bearer(boss) })).json().map((s: { id: number }) => s.id)).toContain(session.id);

    // Closed from the console: the page ends at once, in the reader's language.
    expect((await t.app.inject({ method: 'DELETE', url: `/api/device-web-sessions/${session.id}`, headers: bearer(boss) })).statusCode).toBe(204);
    const closed = await page(session.url, { 'accept-language': 'ru' });
    expect(closed.statusCode).toBe(404);
    expect(closed.body).toContain('Сеанс веб-страницы устройства закончен');

    const expired = (await open(boss, mine)).json();
    await t.ctx.db.execute(sql`UPDATE device_web_sessions SET expires_at = now() - interval '1 second' WHERE id = ${expired.id}`);
    expect((await page(expired.url)).statusCode).toBe(404);

    // A guessed token, and one of the right shape that was never given.
    expect((await page('/device-web/not-a-token/')).statusCode).toBe(404);
    expect((await page(`/device-web/${'A'.repeat(43)}/`)).statusCode).toBe(404);

    // The grant taken away, or the device moved to another location: refused on the next request.
    const held = (await open(boss, mine)).json();
    await t.ctx.db.execute(sql`UPDATE devices SET location_id = (SELECT id FROM locations WHERE code = 'DW_THERE') WHERE id = ${mine}`);
    expect((await page(held.url)).statusCode).toBe(403);
    await t.ctx.db.execute(sql`UPDATE devices SET location_id = (SELECT id FROM locations WHERE code = 'DW_HERE') WHERE id = ${mine}`);
    expect((await page(held.url)).statusCode).toBe(200);

    // The console session that opened it ends: so does the page.
    const loggedOut = await signedInAs(t, { login: 'dw_boss3', role: 'ADMIN', locationIds: [(await sqlRows<{ id: number }>(t.ctx.db, sql`SELECT id FROM locations WHERE code = 'DW_HERE'`))[0].id] });
    const last = (await open(loggedOut, mine)).json();
    expect((await page(last.url)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(loggedOut) })).statusCode).toBeLessThan(300);
    expect((await page(last.url)).statusCode).toBe(404);
  });

  it('never leaves the device: traversal, another host in the path, CONNECT and absolute-URI requests', async () => {
    const { url } = (await open(boss, mine)).json();
    for (const tail of [`/${otherIp}:8080/`, `//${otherIp}:8080/x`, '..%2f..%2f', `@${otherIp}:8080/`, '%2F%2Fevil/']) {
      const res = await page(`${url.slice(0, -1)}${tail.startsWith('/') ? tail : `/${tail}`}`);
      expect([200, 404], tail).toContain(res.statusCode);
    }
    expect(seen.every((r) => r.headers.host === `${printerIp}:8080`)).toBe(true);
    const { port } = new URL(httpBase());
    const raw = (line: string) => new Promise<string>((resolve) => {
      const s = connect(Number(port), '127.0.0.1', () => s.write(`${line}\r\nHost: ${otherIp}:8080\r\nConnection: close\r\n\r\n`));
      let out = '';
      s.on('data', (c) => (out += c.toString()));
      s.on('close', () => resolve(out));
    });
    expect(await raw(`CONNECT ${otherIp}:8080 HTTP/1.1`)).not.toMatch(/^HTTP\/1\.1 200/);
    expect(await raw(`GET http://${otherIp}:8080/ HTTP/1.1`)).not.toContain('other host');
    expect(await raw(`GET http://${otherIp}:8080${url} HTTP/1.1`)).not.toContain('other host');
    expect(otherHits).toEqual([]);
  });
});
