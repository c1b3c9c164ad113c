/**
 * The console's bytes (issue 53): what Chromium fetches of the built console for the login form,
 * and for the login form, signing in and home with its chart drawn. The real server serves a
 * fresh build on a database of its own (PostgreSQL, `pw_bench_console_bytes`, dropped after)
 * with three printers, so home draws its pages chart. Every console file the browser asked for
 * is counted from the built file itself: as it is, gzip (level 9) and brotli (quality 11), and
 * what the server sends for it to a client that accepts br, gzip, or neither (the bytes of the
 * body on the wire, and its content-encoding); and what Chromium itself received; and the API's
 * JSON answers of the visit. Target: the start's scripts (login and the shell) at most 200 KiB gzip.
 *
 *   npm run bench:console-bytes   (BENCH_LIST=1 lists the files; CHROMIUM_PATH, default /usr/bin/chromium;
 *                                  BENCH_SCREENSHOT=file.png saves home; builds the console first)
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { chromium, type Page, type Request } from 'playwright-core';
import { BENCH_HTTP as HTTP, BENCH_PASSWORD, BENCH_PORT, benchApi, databaseUrl, SERVER_URL, startServer, withClient } from './lib/bench-server.ts';

const DB = 'pw_bench_console_bytes';
const WEB_DIST = join(import.meta.dirname, '../apps/web/dist');
const START_BUDGET_KIB = 200;
const KiB = (n: number) => (n / 1024).toFixed(1);

/** The built file a console URL is: its own path when it names one, else index.html (a console route). */
function distFile(pathname: string): string | null {
  const file = join(WEB_DIST, pathname);
  if (pathname !== '/' && statSync(file, { throwIfNoEntry: false })?.isFile()) return file;
  return /\.[a-z0-9]+$/i.test(pathname) ? null : join(WEB_DIST, 'index.html');
}

/** The body's bytes as the server sends them to a client that accepts `encoding` (none: no Accept-Encoding). */
function served(path: string, encoding: string | null): Promise<{ bytes: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${HTTP}${path}`, { headers: encoding ? { 'accept-encoding': encoding } : {} }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ bytes, encoding: String(res.headers['content-encoding'] ?? 'none') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

type Fetched = { path: string; wire: number };

/** Every same-origin console file the page fetches (not /api, /ws or /config.json), with the body bytes Chromium received. */
function recordFiles(page: Page): Fetched[] {
  const files: Fetched[] = [];
  page.on('requestfinished', (req) => {
    const url = new URL(req.url());
    if (url.origin === HTTP && url.pathname.startsWith('/api/')) void apiBytes(req);
    if (url.origin !== HTTP || url.pathname.startsWith('/api/') || url.pathname === '/ws' || url.pathname === '/config.json') return;
    // A file asked for again (the icon) is counted once, with the bytes of both fetches.
    void req.sizes().then((s) => {
      const seen = files.find((f) => f.path === url.pathname);
      if (seen) seen.wire += s.responseBodySize;
      else files.push({ path: url.pathname, wire: s.responseBodySize });
    });
  });
  return files;
}

/** The API's JSON answers of the visit: their bytes on the wire and what gzip would make of them. */
const apiAnswers = { answers: 0, wire: 0, gzip: 0, largest: 0 };
async function apiBytes(req: Request) {
  const res = await req.response();
  const body = res ? await res.body().catch(() => null) : null;
  if (!body) return;
  apiAnswers.answers++;
  apiAnswers.wire += (await req.sizes()).responseBodySize;
  apiAnswers.gzip += gzipSync(body).length;
  apiAnswers.largest = Math.max(apiAnswers.largest, body.length);
}

async function report(name: string, fetched: Fetched[]) {
  let raw = 0, gzip = 0, br = 0, sentBr = 0, sentGzip = 0, sentPlain = 0, wire = 0, scriptsGzip = 0;
  const encodings = new Set<string>();
  const rows: string[] = [];
  for (const f of fetched) {
    const file = distFile(f.path);
    if (!file) throw new Error(`${f.path} is not a file of the build`);
    const data = readFileSync(file);
    const z = gzipSync(data, { level: 9 }).length;
    const b = brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }).length;
    const [sb, sg, sp] = await Promise.all([served(f.path, 'br'), served(f.path, 'gzip'), served(f.path, null)]);
    raw += data.length; gzip += z; br += b; wire += f.wire;
    if (f.path.endsWith('.js')) scriptsGzip += z;
    sentBr += sb.bytes; sentGzip += sg.bytes; sentPlain += sp.bytes;
    encodings.add(`${sb.encoding}/${sg.encoding}/${sp.encoding}`);
    rows.push(`    ${f.path.padEnd(56)} ${KiB(data.length).padStart(7)} KiB  gzip ${KiB(z).padStart(6)}  br ${KiB(b).padStart(6)}  sent for br ${KiB(sb.bytes).padStart(6)} (${sb.encoding})`);
  }
  console.log(`${name}: ${fetched.length} files, ${KiB(raw)} KiB as built, ${KiB(gzip)} KiB gzip (the scripts ${KiB(scriptsGzip)}), ${KiB(br)} KiB br`);
  console.log(`  the server sends ${KiB(sentBr)} KiB to a client accepting br, ${KiB(sentGzip)} KiB accepting gzip, ${KiB(sentPlain)} KiB accepting neither (content-encoding br/gzip/neither: ${[...encodings].join(', ')}); Chromium received ${KiB(wire)} KiB`);
  if (process.env.BENCH_LIST) console.log(rows.sort().join('\n'));
  return { raw, gzip, br, scriptsGzip };
}

/** Three printers at the DEFAULT location, each read twice so that this month has pages in black-and-white and colour: home draws its chart. */
async function fillPrinters(admin: string, api: ReturnType<typeof benchApi>) {
  const auth = { authorization: `Bearer ${admin}`, 'content-type': 'application/json' };
  const locations = await api.json<{ pageRows: { id: number; code: string }[] }>('/api/user-locations/', { headers: auth });
  const location = { id: (locations.pageRows.find((l) => l.code === 'DEFAULT') ?? locations.pageRows[0]!).id };
  const agent = await api.json<{ token: string }>('/api/agents', { method: 'POST', headers: auth, body: JSON.stringify({ name: `bytes ${randomUUID()}`, location }) });
  const reading = (k: number, mono: number, color: number, readAt: Date) => ({
    id: randomUUID(), runId: null, rangeId: null, ip: `127.0.53.${k}`, port: 161,
    reading: {
      schema: 'pagewatch/reading@1', readAt: readAt.toISOString(), profileId: 'generic', modelsVersion: 1,
      sysObjectID: '1.3.6.1.4.1.11.2.3.9.1', sysDescr: 'Acme Bytes 1', vendor: 'Acme', model: 'BYTES-1', serialNumber: `BYTES${k}`,
      macAddress: null, firmware: '1.0', hostName: `bytes-${k}`, location: 'Floor 1', isPrinter: true,
      deviceType: 'PRINTER', colorType: 'COLOR', paperFormat: 'A4',
      status: { deviceStatus: 'running', printerStatus: 'idle', errors: [], errorStateHex: '00' },
      counters: { total: mono + color, totalUnit: 'impressions', powerOn: null, mono, color, a3: null, a4: mono + color, copies: null, scans: null, fax: null, duplex: null, vendor: [] },
      supplies: [], trays: [], problems: [],
    },
  });
  // A day apart: the months count the counters' steps from day to day (yesterday may be last month's).
  for (const [step, readAt] of [[0, new Date(Date.now() - 86_400_000)], [1, new Date()]] as const) {
    await api.json('/api/agent/readings', {
      method: 'POST',
      headers: { authorization: `Bearer ${agent.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ batchId: randomUUID(), readings: [1, 2, 3].map((k) => reading(k, 1_000 + step * 40 * k, 500 + step * 20 * k, readAt)) }),
    });
  }
}

console.log('building the console…');
const build = spawnSync('npm', ['run', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
if (build.status !== 0) throw new Error('the console did not build');

await withClient(SERVER_URL, async (c) => {
  await c.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  await c.query(`CREATE DATABASE ${DB}`);
});
const dataDir = mkdtempSync(join(tmpdir(), 'pw-bench-bytes-'));
const server = await startServer({ databaseUrl: databaseUrl(DB), port: BENCH_PORT, password: BENCH_PASSWORD, webDist: WEB_DIST, env: { PAGEWATCH_DATA_DIR: dataDir } });
try {
  const api = benchApi(HTTP, databaseUrl(DB));
  await fillPrinters(await api.signIn('admin', BENCH_PASSWORD), api);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
  try {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();
    const fetched = recordFiles(page);
    await page.goto(`${HTTP}/login-form`);
    await page.locator('input[autocomplete="current-password"]').waitFor();
    await page.waitForLoadState('networkidle');
    const login = fetched.map((f) => ({ ...f }));
    await page.locator('input[autocomplete="username"]').fill('admin');
    await page.locator('input[autocomplete="current-password"]').fill(BENCH_PASSWORD);
    await page.locator('input[autocomplete="current-password"]').press('Enter');
    await page.waitForURL(/\/home$/);
    // Home is shown when its pages chart has drawn its bars.
    await page.locator('[data-testid="home-pages"] .recharts-bar-rectangle path').first().waitFor({ timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    if (process.env.BENCH_SCREENSHOT) await page.screenshot({ path: process.env.BENCH_SCREENSHOT, fullPage: true });
    console.log(`\nThe console's files as Chromium fetched them (load average ${loadavg()[0]!.toFixed(1)}):`);
    const start = await report('login form', login);
    await report('login form, sign-in and home with its chart', fetched);
    console.log(`the API's answers of the visit: ${apiAnswers.answers}, ${KiB(apiAnswers.wire)} KiB on the wire (gzip would make ${KiB(apiAnswers.gzip)} KiB; the largest ${KiB(apiAnswers.largest)} KiB)`);
    console.log(`\nthe start (login form): its scripts ${KiB(start.scriptsGzip)} KiB gzip, target at most ${START_BUDGET_KIB} KiB: ${start.scriptsGzip / 1024 <= START_BUDGET_KIB ? 'met' : 'NOT met'}; with the stylesheet and the page ${KiB(start.gzip)} KiB gzip`);
    await context.close();
  } finally {
    await browser.close();
  }
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  await withClient(SERVER_URL, (c) => c.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`));
  rmSync(dataDir, { recursive: true, force: true });
}
