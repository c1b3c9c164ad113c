import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startDeviceWebRelay } from '@pagewatch/agent/device-web-relay';
import { loadConfig } from '../../config.ts';
import { bearer, testApp } from '../../test/test-app.ts';
import { sqlRows } from '../../test/sql-rows.ts';
import { directTransport, ensureBuiltinAgent } from '../agents/builtin-agent.ts';

/**
 * The device's web page on an origin of its own (issue 55, PAGEWATCH_DEVICE_WEB_ORIGIN): each
 * session on a host of its own, its URL's one-time ticket swapped for a cookie of that host, and
 * every request refused without that cookie, so a copied URL is of no use in another browser. A
 * small HTTP server stands for the printer's page on 127.a.b.10:8080, carried by the built-in agent.
 */
const origin = { scheme: 'http', suffix: 'devices.localhost', port: '18080' } as const;
const t = testApp({ deviceWebOrigin: origin });
const printerIp = `127.${20 + Math.floor(Math.random() * 200)}.${1 + Math.floor(Math.random() * 250)}.10`;
const seen: IncomingMessage[] = [];
let printer: Server;
let relay: { stop(): Promise<void> };
let deviceId: number;

beforeAll(async () => {
  printer = createServer((req, res) => {
    seen.push(req);
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`page ${req.url}`);
  });
  await new Promise<void>((resolve, reject) => printer.once('error', reject).listen(8080, printerIp, () => resolve()));
  const builtin = await ensureBuiltinAgent(t.ctx);
  const [d] = await sqlRows<{ id: number }>(t.ctx.db, sql`
    INSERT INTO devices (location_id, ip, serial_number, model_code, agent_id)
    SELECT id, ${printerIp}, 'DWO-1', 'M', ${builtin} FROM locations WHERE code = 'DEFAULT' RETURNING id`);
  deviceId = Number(d.id);
  relay = startDeviceWebRelay({ transport: directTransport(t.ctx, builtin), allowLoopback: true });
});

afterAll(async () => {
  await relay.stop();
  printer.close();
});

type Opened = { id: number; url: string; host: string; path: string; query: string };
async function open(): Promise<Opened> {
  const res = await t.app.inject({ method: 'POST', url: `/api/devices/${deviceId}/web-sessions`, payload: { port: 8080 }, headers: bearer(t.admin) });
  expect(res.statusCode, res.body).toBe(200);
  const { id, url } = res.json() as { id: number; url: string };
  const u = new URL(url);
  return { id, url, host: u.host, path: u.pathname, query: u.search };
}
const get = (host: string, url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers: { host, ...headers } });
/** The browser's first request: the ticket swapped, the cookie it gets back. */
async function claim(s: Opened): Promise<string> {
  const res = await get(s.host, `${s.path}${s.query}`);
  expect(res.statusCode, res.body).toBe(302);
  expect(res.headers.location).toBe(s.path);
  const setCookie = String(res.headers['set-cookie']);
  expect(setCookie).toMatch(/^pagewatch_device_web=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
  return setCookie.split(';')[0]!;
}

describe("the device's web page on an origin of its own", () => {
  it('opens on a host of its own with a one-time ticket, which the first request swaps for a cookie of that host', async () => {
    const s = await open();
    expect(s.url).toMatch(/^http:\/\/[0-9a-f]{32}\.devices\.localhost:18080\/device-web\/[A-Za-z0-9_-]{43}\/\?pagewatch_ticket=[A-Za-z0-9_-]{43}$/);
    const cookie = await claim(s);

    const page = await get(s.host, s.path, { cookie });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.body).toBe('page /');
    // Its own origin needs no sandbox; the rest of the policy stays.
    expect(page.headers['content-security-policy']).not.toContain('sandbox');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    // Our cookie never reaches the printer.
    expect(seen.at(-1)!.headers.cookie).toBeUndefined();

    // The ticket is spent: the URL the console opened, opened again (or copied), gets nothing.
    const again = await get(s.host, `${s.path}${s.query}`, { 'accept-language': 'ru' });
    expect(again.statusCode).toBe(403);
    expect(again.body).toContain('уже использована');
  });

  it('refuses the copied URL in another browser: no cookie, a forged one, or another session\'s', async () => {
    const s = await open();
    const cookie = await claim(s);
    const before = seen.length;
    const none = await get(s.host, `${s.path}status`);
    expect(none.statusCode).toBe(403);
    expect(none.body).toContain('belongs to the browser that opened it');
    expect((await get(s.host, s.path, { cookie: `pagewatch_device_web=${'A'.repeat(43)}` })).statusCode).toBe(403);

    const other = await open();
    await claim(other);
    // This session's cookie on the other session's host and path.
    expect((await get(other.host, other.path, { cookie })).statusCode).toBe(403);
    // This session's path on the other session's host (its cookie sent there too): not this session.
    expect((await get(other.host, s.path, { cookie })).statusCode).toBe(404);
    expect(seen.length).toBe(before);
  });

  it('lets a ticket be swapped only while it lasts, and only while the session is open', async () => {
    const late = await open();
    await t.ctx.db.execute(sql`UPDATE device_web_sessions SET ticket_expires_at = now() - interval '1 second' WHERE id = ${late.id}`);
    expect((await get(late.host, `${late.path}${late.query}`)).statusCode).toBe(403);

    const closed = await open();
    expect((await t.app.inject({ method: 'DELETE', url: `/api/device-web-sessions/${closed.id}`, headers: bearer(t.admin) })).statusCode).toBe(204);
    const res = await get(closed.host, `${closed.path}${closed.query}`);
    expect(res.statusCode).toBe(404);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('serves the pages only on their hosts: no console or API there, no page on the console\'s host', async () => {
    const s = await open();
    const cookie = await claim(s);
    // The console's host.
    expect((await get('localhost:18080', s.path, { cookie })).statusCode).toBe(404);
    expect((await get('localhost:18080', `${s.path}${s.query}`)).statusCode).toBe(404);
    // The page's host: the API, the console, the agent protocol are not there, even with a token.
    for (const url of ['/api/users/me', '/', '/login-form', '/api/agent/web-requests', '/ws']) {
      const res = await get(s.host, url, { ...bearer(t.admin), cookie });
      expect(res.statusCode, url).toBe(404);
    }
    // A host under the origin that no session has.
    expect((await get(`${'0'.repeat(32)}.devices.localhost:18080`, s.path, { cookie })).statusCode).toBe(404);
    // The console's own API still answers on its host.
    expect((await get('localhost:18080', '/api/users/me', bearer(t.admin))).statusCode).toBe(200);
  });

  it('reads the setting at the start, and stops it with a clear message when it is not a wildcard origin', () => {
    expect(loadConfig({ PAGEWATCH_DEVICE_WEB_ORIGIN: 'https://*.Devices.Example.com' }).deviceWebOrigin).toEqual({ scheme: 'https', suffix: 'devices.example.com', port: '' });
    expect(loadConfig({ PAGEWATCH_DEVICE_WEB_ORIGIN: 'http://*.localhost:8443/' }).deviceWebOrigin).toEqual({ scheme: 'http', suffix: 'localhost', port: '8443' });
    expect(loadConfig({}).deviceWebOrigin).toBeNull();
    for (const bad of ['devices.example.com', 'https://devices.example.com', 'ftp://*.example.com', 'https://*.example.com/path', 'https://*.exa mple.com', 'https://*.example.com:70000']) {
      expect(() => loadConfig({ PAGEWATCH_DEVICE_WEB_ORIGIN: bad }), bad).toThrow(/PAGEWATCH_DEVICE_WEB_ORIGIN must be a wildcard origin/);
    }
  });
});
