import { createServer, get as httpGet, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startDeviceWebRelay } from '@pagewatch/agent/device-web-relay';
import { createHttpTransport } from '@pagewatch/agent/transport';
import { bearer, testApp } from '../../test/test-app.ts';
import { sqlRows } from '../../test/sql-rows.ts';
import { createAgent } from '../ingest/ingest.fixtures.ts';
import { directTransport, ensureBuiltinAgent } from '../agents/builtin-agent.ts';

/**
 * The device's answers streamed (issue 55): a large page's first bytes reach the browser before
 * its last leave the device, the 8 MB cap holds on the way, a browser that goes away ends the
 * device's answer, and an agent of an older release (answers whole, base64) is still carried.
 * A small HTTP server stands for the printer on 127.a.b.10:8080; the browser is a real HTTP
 * client of the listening server. Three agents: standalone streaming, standalone whole, built-in.
 */
const t = testApp({ webSocket: true });
const printerIp = `127.${20 + Math.floor(Math.random() * 200)}.${1 + Math.floor(Math.random() * 250)}.10`;
const MB = 1024 * 1024;
const chunk = Buffer.alloc(MB, 0x61);
let printer: Server;
const relays: { stop(): Promise<void> }[] = [];
const deviceOf: Record<'streaming' | 'whole' | 'builtin', number> = { streaming: 0, whole: 0, builtin: 0 };
/** Each answer of the printer's by path: let go of the rest, and whether its connection closed before its end. */
const held = new Map<string, { release(): void; cut: Promise<boolean> }>();

/** Writes `mb` megabytes, the first at once and the rest once released; resolves `cut` with whether the connection closed first. */
function largeAnswer(req: IncomingMessage, res: ServerResponse, mb: number, type: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const cut = new Promise<boolean>((resolve) => {
    res.once('close', () => resolve(!res.writableFinished));
  });
  held.set(req.url!, { release, cut });
  res.writeHead(200, { 'content-type': type });
  res.write(chunk);
  void released.then(async () => {
    for (let i = 1; i < mb && !res.destroyed; i++) if (!res.write(chunk)) await new Promise((r) => res.once('drain', r));
    res.end();
  });
}

function printerPage(req: IncomingMessage, res: ServerResponse) {
  const url = req.url ?? '/';
  if (url.startsWith('/big')) return largeAnswer(req, res, 6, 'application/octet-stream');
  // 32 MB: more than the socket buffers on the way hold, so a cut at 8 MB is seen by the printer.
  if (url.startsWith('/huge-html')) return largeAnswer(req, res, 32, 'text/html');
  if (url.startsWith('/huge')) return largeAnswer(req, res, 32, 'application/octet-stream');
  if (url === '/declared') {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(9 * MB) });
    return res.end(Buffer.alloc(9 * MB));
  }
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end('<a href="/status">Status</a>');
}

const httpBase = () => t.wsUrl.replace(/^ws/, 'http').replace(/\/ws$/, '');
async function sessionOf(deviceId: number): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: `/api/devices/${deviceId}/web-sessions`, payload: { port: 8080 }, headers: bearer(t.admin) });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { url: string }).url;
}

type Read = { status: number; firstBytes: number; total: number; ended: boolean; body: string };
/**
 * A browser's GET over the wire. At its first bytes it lets the printer go on (`release`): a
 * server that held the answer whole would never give those first bytes, and the read times out.
 * `leaveAfterFirst` goes away at the first bytes instead.
 */
function browse(path: string, opts: { release?: string; leaveAfterFirst?: boolean } = {}): Promise<Read> {
  return new Promise((resolve, reject) => {
    const req = httpGet(`${httpBase()}${path}`, (res) => {
      const read: Read = { status: res.statusCode ?? 0, firstBytes: 0, total: 0, ended: false, body: '' };
      res.on('data', (c: Buffer) => {
        if (!read.firstBytes) {
          read.firstBytes = c.length;
          if (opts.leaveAfterFirst) {
            req.destroy();
            return resolve(read);
          }
          if (opts.release) held.get(opts.release)?.release();
        }
        read.total += c.length;
        if (read.body.length < 2000) read.body += c.toString('utf8');
      });
      res.on('end', () => resolve({ ...read, ended: true }));
      res.on('error', () => resolve(read));
      res.on('aborted', () => resolve(read));
    });
    req.on('error', (e) => (opts.leaveAfterFirst ? undefined : reject(e)));
    req.setTimeout(15_000, () => req.destroy(new Error(`no answer to ${path} in 15 s`)));
  });
}

const device = async (serial: string, agentId: number, locationCode = 'DEFAULT') => {
  const [d] = await sqlRows<{ id: number }>(t.ctx.db, sql`
    INSERT INTO devices (location_id, ip, serial_number, model_code, agent_id)
    SELECT id, ${printerIp}, ${serial}, 'M', ${agentId} FROM locations WHERE code = ${locationCode} RETURNING id`);
  return Number(d.id);
};

beforeAll(async () => {
  printer = createServer(printerPage);
  await new Promise<void>((resolve, reject) => printer.once('error', reject).listen(8080, printerIp, () => resolve()));
  const streaming = await createAgent(t.app, t.admin, { name: 'Streaming' });
  const whole = await createAgent(t.app, t.admin, { name: 'Whole' });
  const builtin = await ensureBuiltinAgent(t.ctx);
  deviceOf.streaming = await device('DWS-1', streaming.agentId);
  deviceOf.whole = await device('DWS-2', whole.agentId);
  deviceOf.builtin = await device('DWS-3', builtin);
  const transport = (token: string) => createHttpTransport({ serverUrl: httpBase(), token });
  // An agent of an older release: no streamed answers, each answer whole in base64.
  const { webStream: _none, ...older } = transport(whole.token);
  relays.push(
    startDeviceWebRelay({ transport: transport(streaming.token), allowLoopback: true }),
    startDeviceWebRelay({ transport: older, allowLoopback: true }),
    startDeviceWebRelay({ transport: directTransport(t.ctx, builtin), allowLoopback: true }),
  );
});

afterAll(async () => {
  await Promise.all(relays.map((r) => r.stop()));
  printer.closeAllConnections();
  printer.close();
});

describe("the device's answers streamed through its agent", () => {
  it.each(['streaming', 'builtin'] as const)('%s: the first bytes of 6 MB reach the browser before the device sends the rest, then all of it', async (agent) => {
    const url = await sessionOf(deviceOf[agent]);
    const read = await browse(`${url}big-${agent}`, { release: `/big-${agent}` });
    expect(read.status).toBe(200);
    expect(read.firstBytes).toBeGreaterThan(0);
    expect(read.firstBytes).toBeLessThan(6 * MB);
    expect(read.ended).toBe(true);
    expect(read.total).toBe(6 * MB);
  });

  it('an agent of an older release, which answers whole, is still carried', async () => {
    const url = await sessionOf(deviceOf.whole);
    const page = await browse(url);
    expect(page.body).toBe(`<a href="${url}status">Status</a>`);
    // Whole: the printer is let go before the browser has anything.
    const pending = browse(`${url}big-old`);
    await expect.poll(() => held.has('/big-old')).toBe(true);
    held.get('/big-old')!.release();
    const read = await pending;
    expect([read.status, read.ended, read.total]).toEqual([200, true, 6 * MB]);
  });

  it('holds the 8 MB cap: a declared 9 MB refused, 32 MB of HTML refused whole, 32 MB streamed cut short at 8', async () => {
    const url = await sessionOf(deviceOf.streaming);
    const declared = await browse(`${url}declared`);
    expect(declared.status).toBe(502);

    // HTML is read whole to keep its links in the session: its first bytes come after its last.
    const pendingHtml = browse(`${url}huge-html`);
    await expect.poll(() => held.has('/huge-html')).toBe(true);
    held.get('/huge-html')!.release();
    const html = await pendingHtml;
    expect(html.status).toBe(502);
    expect(html.body).toContain('larger than 8 MB');
    expect(await held.get('/huge-html')!.cut).toBe(true);

    const streamed = browse(`${url}huge`, { release: '/huge' });
    const read = await streamed;
    expect(read.status).toBe(200);
    expect(read.ended).toBe(false);
    expect(read.total).toBeLessThanOrEqual(8 * MB);
    expect(await held.get('/huge')!.cut).toBe(true);
  });

  it('a browser that goes away ends the device\'s answer, and the next page still comes', async () => {
    const url = await sessionOf(deviceOf.streaming);
    const left = await browse(`${url}big-left`, { leaveAfterFirst: true });
    expect(left.firstBytes).toBeGreaterThan(0);
    // The printer, still holding the rest, sees its connection closed.
    expect(await held.get('/big-left')!.cut).toBe(true);
    const next = await browse(url);
    expect([next.status, next.ended]).toEqual([200, true]);
  });
});
