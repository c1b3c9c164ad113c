/**
 * Device web page benchmark (issue 55): the time from the click (the console's POST that opens a
 * session) to the first byte of the printer's page in its new tab, through the real server (on
 * PGlite, its default; BENCH_DB=postgres: a database of its own on the benchmarks' PostgreSQL) and a standalone agent (the CLI, its long poll over its own connection),
 * to a small HTTP server standing for a printer's page on 127.a.b.10:8080, all on loopback.
 *   1. One click at a time, 20 times.
 *   2. 20 sessions at once (20 clicks together), 10 rounds.
 *   3. Pages of 20 open sessions read at once (a page load's later requests), 1,000 requests.
 *   4. A 6 MB file of the printer's (a scan, a log), 10 times: its first byte and its last, streamed
 *      by the agent as the printer sends it.
 * Target: the first byte within 1 s of the click, 20 sessions at once.
 *
 *   npm run bench:device-web   (BENCH_HOG=1 keeps every core busy while it measures: bench/lib/hog.ts;
 *   BENCH_DB=postgres runs the server on PostgreSQL)
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_HTTP as HTTP, BENCH_PASSWORD, BENCH_PORT, SERVER_URL, databaseUrl, pct, startServer, withClient } from './lib/bench-server.ts';
import { startHog, type Hog } from './lib/hog.ts';

const SESSIONS = 20;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const PAGE_REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);
const TARGET_MS = 1000;
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const ip = `127.${30 + Math.floor(Math.random() * 200)}.${1 + Math.floor(Math.random() * 250)}.10`;
// A printer's status page: some 20 KB of HTML.
const html = `<html><head><title>EWS</title></head><body>${'<p><a href="/status">Status</a> toner 42%</p>'.repeat(450)}</body></html>`;
const big = Buffer.alloc(6 * 1024 * 1024, 0x5a);
const printer = createServer((req, res) => {
  if (req.url === '/scan.bin') res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(big);
  else res.writeHead(200, { 'content-type': 'text/html' }).end(html);
});
await new Promise<void>((resolve, reject) => printer.once('error', reject).listen(8080, ip, resolve));

const dir = mkdtempSync(join(tmpdir(), 'pagewatch-bench-web-'));
const onPostgres = process.env.BENCH_DB === 'postgres';
const dbName = `pagewatch_bench_web_${process.pid}`;
if (onPostgres) await withClient(SERVER_URL, (c) => c.query(`CREATE DATABASE ${dbName}`));
const server = await startServer({ databaseUrl: onPostgres ? databaseUrl(dbName) : '', port: BENCH_PORT, password: BENCH_PASSWORD, env: { PAGEWATCH_DATA_DIR: join(dir, 'data'), PAGEWATCH_SESSION_CACHE_MS: '5000' } });
let agent: ReturnType<typeof spawn> | null = null;
let hog: Hog | null = null;
try {
  const json = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    const res = await fetch(`${HTTP}${path}`, init);
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const { token: admin } = await json<{ token: string }>('/api/auth/', { method: 'POST', headers: { authorization: `Basic ${Buffer.from(`admin:${BENCH_PASSWORD}`).toString('base64')}` } });
  const auth = { authorization: `Bearer ${admin}`, 'content-type': 'application/json' };
  const locations = (await json<{ pageRows: { id: number; code: string }[] }>('/api/user-locations/', { headers: auth })).pageRows;
  const created = await json<{ token: string }>('/api/agents', { method: 'POST', headers: auth, body: JSON.stringify({ name: 'Bench agent', location: { id: locations.find((l) => l.code === 'DEFAULT')!.id } }) });
  const reading = {
    schema: 'pagewatch/reading@1', readAt: new Date().toISOString(), profileId: 'generic', modelsVersion: 1, sysObjectID: '1.3.6.1.4.1.11.2.3.9.1',
    sysDescr: 'Bench EWS', vendor: 'Acme', model: 'EWS', serialNumber: 'BENCH-EWS', macAddress: null, firmware: '1', hostName: null, location: null,
    isPrinter: true, deviceType: 'PRINTER', colorType: 'MONO', paperFormat: 'A4', status: { deviceStatus: 'running', printerStatus: 'idle', errors: [], errorStateHex: '00' },
    counters: { total: 10, totalUnit: 'impressions', powerOn: null, mono: 10, color: null, a3: null, a4: 10, copies: null, scans: null, fax: null, duplex: null, vendor: [] },
    supplies: [], trays: [], problems: [],
  };
  await json('/api/agent/readings', { method: 'POST', headers: { authorization: `Bearer ${created.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ batchId: randomUUID(), readings: [{ id: randomUUID(), runId: null, rangeId: null, ip, port: 161, reading }] }) });
  const [device] = (await json<{ pageRows: { id: number }[] }>('/api/devices/page?page=5,1', { headers: auth })).pageRows;
  agent = spawn(process.execPath, ['apps/agent/src/cli.ts', 'run', '--server', HTTP, '--token', created.token, '--spool-dir', join(dir, 'spool')], {
    env: { ...process.env, PAGEWATCH_AGENT_DEVICE_WEB_LOOPBACK: '1' }, stdio: 'ignore',
  });

  /** One click: the session opened, then its page asked for; ms to the first byte (the answer's head). */
  const click = async (): Promise<{ ms: number; url: string }> => {
    const t0 = performance.now();
    const { url } = await json<{ url: string }>(`/api/devices/${device!.id}/web-sessions`, { method: 'POST', headers: auth, body: JSON.stringify({ port: 8080 }) });
    const res = await fetch(`${HTTP}${url}`);
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    return { ms, url };
  };
  // The agent's first poll, and a warm-up.
  for (let i = 0; i < 60; i++) {
    try {
      await click();
      break;
    } catch (error) {
      if (i === 59) throw error;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  if (process.env.BENCH_HOG === '1') hog = startHog();
  console.log(`\nserver on ${onPostgres ? 'PostgreSQL' : 'PGlite'}; load average at start ${loadavg()} on ${availableParallelism()} cores${hog ? `; CPU hog: ${hog.what}` : ''}`);
  const line = (name: string, times: number[]) => {
    const s = [...times].sort((a, b) => a - b);
    console.log(`${name.padEnd(48)} p50 ${pct(s, 50)!.toFixed(0).padStart(5)} ms  p95 ${pct(s, 95)!.toFixed(0).padStart(5)} ms  max ${s.at(-1)!.toFixed(0).padStart(5)} ms  (${s.length})`);
    return s.at(-1)!;
  };

  const single: number[] = [];
  for (let i = 0; i < 20; i++) single.push((await click()).ms);
  line('click to first byte, one at a time', single);

  const together: number[] = [];
  let urls: string[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const round = await Promise.all(Array.from({ length: SESSIONS }, () => click()));
    together.push(...round.map((c) => c.ms));
    urls = round.map((c) => c.url);
  }
  const worst = line(`click to first byte, ${SESSIONS} sessions at once`, together);

  const pages: number[] = [];
  let next = 0;
  await Promise.all(urls.map(async (url) => {
    while (next++ < PAGE_REQUESTS) {
      const t0 = performance.now();
      const res = await fetch(`${HTTP}${url}status`);
      await res.arrayBuffer();
      pages.push(performance.now() - t0);
    }
  }));
  line(`page requests of ${SESSIONS} open sessions at once`, pages);

  const first: number[] = [];
  const last: number[] = [];
  for (let i = 0; i < 10; i++) {
    const t0 = performance.now();
    const res = await fetch(`${HTTP}${urls[0]}scan.bin`);
    const reader = res.body!.getReader();
    let size = 0;
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      if (size === 0) first.push(performance.now() - t0);
      size += chunk.value.length;
    }
    last.push(performance.now() - t0);
    if (size !== big.length) throw new Error(`scan.bin: ${size} bytes of ${big.length}`);
  }
  line('6 MB file, its first byte', first);
  line('6 MB file, its last byte', last);
  console.log(`\nworst click to first byte with ${SESSIONS} at once: ${worst.toFixed(0)} ms (target < ${TARGET_MS} ms): ${worst < TARGET_MS ? 'met' : 'NOT met'}`);
  console.log(`load average at end ${loadavg()}`);
} finally {
  hog?.stop();
  if (agent?.pid) process.kill(agent.pid, 'SIGTERM');
  if (server.pid) process.kill(server.pid, 'SIGTERM');
  printer.close();
  await new Promise((r) => (server.exitCode !== null ? r(null) : server.once('exit', r)));
  rmSync(dir, { recursive: true, force: true });
  if (onPostgres) await withClient(SERVER_URL, (c) => c.query(`DROP DATABASE IF EXISTS ${dbName}`));
}
