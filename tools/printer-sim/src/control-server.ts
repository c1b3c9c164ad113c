import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Fleet } from './fleet.ts';

/**
 * A tiny HTTP API on 127.0.0.1 to force events in a running simulator (tests, demos):
 *   GET  /printers                               list with addresses and supply levels
 *   GET  /printers/:i
 *   POST /printers/:i/ip            {"ip"?}       change IP (default: to its spare address and back)
 *   POST /printers/:i/supplies/:n   {"percent"}   set a supply level
 *   POST /printers/:i/supplies/:n/replace        a new cartridge
 *   POST /printers/:i/offline | /online | /jam | /clear
 *   POST /time                      {"advanceMs"?, "speed"?}
 */
export async function startControlServer(fleet: Fleet, port = 0, host = '127.0.0.1'): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    void handle(fleet, req)
      .then(([status, body]) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      })
      .catch((error: Error) => {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: error.message }));
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const { port: actual } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${actual}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function readJson(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of req) {
    text += chunk;
    if (text.length > 10_000) throw new Error('body too large');
  }
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

async function handle(fleet: Fleet, req: http.IncomingMessage): Promise<[number, unknown]> {
  const parts = (req.url ?? '/').split('?')[0]!.split('/').filter(Boolean);
  const body = req.method === 'POST' ? await readJson(req) : {};
  if (parts[0] === 'time' && req.method === 'POST') {
    if (typeof body.speed === 'number') fleet.setSpeed(body.speed);
    if (typeof body.advanceMs === 'number') await fleet.advance(body.advanceMs);
    return [200, { tick: fleet.currentTick() }];
  }
  if (parts[0] !== 'printers') return [404, { error: 'not found' }];
  if (parts.length === 1) return [200, fleet.list()];
  const i = Number(parts[1]);
  if (!Number.isInteger(i) || i < 0 || i >= fleet.count) return [404, { error: `no printer ${parts[1]}` }];
  if (parts.length === 2) return [200, fleet.info(i)];
  if (req.method !== 'POST') return [405, { error: 'use POST' }];
  const action = parts.slice(2).join('/');
  if (action === 'ip') await fleet.changeIp(i, typeof body.ip === 'string' ? body.ip : undefined);
  else if (action === 'offline') fleet.setOffline(i, true);
  else if (action === 'online') fleet.setOffline(i, false);
  else if (action === 'jam') fleet.setJammed(i, true);
  else if (action === 'clear') fleet.setJammed(i, false);
  else if (parts[2] === 'supplies' && parts.length === 4) fleet.setSupplyPercent(i, Number(parts[3]), Number(body.percent));
  else if (parts[2] === 'supplies' && parts[4] === 'replace') fleet.replaceSupply(i, Number(parts[3]));
  else return [404, { error: `unknown action ${action}` }];
  return [200, fleet.info(i)];
}
