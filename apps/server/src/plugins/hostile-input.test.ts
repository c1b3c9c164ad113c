import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILTER_OPERATORS } from '@pagewatch/contracts/list';
import { sql } from 'drizzle-orm';
import { defaultLocationId } from '../modules/locations/locations.repository.ts';
import { sqlRows } from '../test/sql-rows.ts';
import { basic, bearer, createTestApp, signIn } from '../test/test-app.ts';
import { hostileValue, pathsOf, replaceAt, sampleOf } from '../test/hostile-values.ts';

/**
 * Issue 14, finding 9: hostile values in every slot of every route in the route table (path
 * params, query strings, JSON bodies, Basic credentials, list filters, multipart bodies), signed
 * in as the admin (agent routes with an agent's token): never a 5xx, always the error shape.
 */
const SKIP: Record<string, string> = {
  'POST /api/auth/logout': 'takes no input; it would end the admin session the other calls use',
};
/** Path params that are not hostile: an id in range that names nothing, so nothing real is changed. */
const QUIET_ID = '2147483647';

type Op = { method: string; url: string; access: string; params: string[]; query: string[]; body: unknown; multipart: boolean; filterFields: string[] };
type Slot = { op: Op; kind: 'param' | 'query' | 'filter' | 'body' | 'basic' | 'multipart'; name: string; path?: (string | number)[] };

let t: Awaited<ReturnType<typeof createTestApp>>;
let admin = '';
let agentToken = '';
const slots: Slot[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app);
  const agent = await t.app.inject({ method: 'POST', url: '/api/agents', headers: bearer(admin), payload: { name: 'fuzz agent', location: { id: await defaultLocationId(t.ctx.db) } } });
  agentToken = agent.json().token;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const doc = t.app.swagger() as { paths: Record<string, Record<string, any>> };
  for (const r of t.app.routeAccess) {
    if (r.url === '/ws' || r.url.startsWith('/api/docs') || SKIP[`${r.method} ${r.url}`]) continue;
    const spec = doc.paths[r.url.replace(/:(\w+)/g, '{$1}')]?.[r.method.toLowerCase()] ?? {};
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const parameters = (spec.parameters ?? []) as { in: string; name: string }[];
    const rows = spec.responses?.['200']?.content?.['application/json']?.schema?.properties?.pageRows?.items?.properties;
    const op: Op = {
      method: r.method,
      url: r.url,
      access: String(r.access),
      params: [...r.url.matchAll(/:(\w+)/g)].map((m) => m[1]!),
      query: parameters.filter((p) => p.in === 'query').map((p) => p.name),
      body: sampleOf(spec.requestBody?.content?.['application/json']?.schema),
      multipart: !!spec.requestBody?.content?.['multipart/form-data'] || /upload|service\/set|\/plan$/.test(r.url),
      filterFields: parameters.some((p) => p.name === 'filter-json') ? Object.keys(rows ?? {}) : [],
    };
    for (const name of op.params) slots.push({ op, kind: 'param', name });
    for (const name of op.query) slots.push({ op, kind: 'query', name });
    for (const name of op.filterFields) slots.push({ op, kind: 'filter', name });
    if (spec.requestBody?.content?.['application/json']) for (const path of pathsOf(op.body)) slots.push({ op, kind: 'body', name: path.join('.'), path });
    if (op.multipart && r.method === 'POST') slots.push({ op, kind: 'multipart', name: 'truncated' });
    if (r.url === '/api/auth/') slots.push({ op, kind: 'basic', name: 'login' }, { op, kind: 'basic', name: 'password' });
    if (!op.params.length && !op.query.length && !spec.requestBody && !op.multipart && r.url !== '/api/auth/') slots.push({ op, kind: 'query', name: 'unexpected' });
  }
}, 60_000);
afterAll(() => t?.close());

/**
 * The upload routes, each with a file it would take: the room plan, the service file, the models
 * pack; of 70 KB, so that a cut in the file's data arrives while the route reads the file.
 */
const UPLOADS = (locationId: number) => [
  { url: `/api/locations/${locationId}/plan`, field: 'file', name: 'plan.svg', type: 'image/svg+xml', data: `<svg xmlns="http://www.w3.org/2000/svg"><!-- ${'x'.repeat(70_000)} --></svg>` },
  { url: '/api/service/set-active-status', field: 'serialNumbers', name: 's.txt', type: 'text/plain', data: Array.from({ length: 7000 }, (_, i) => `SN-CUT-${i}`).join('\n') },
  { url: '/api/versions/upload', field: 'version', name: 'models.json', type: 'application/json', data: `{"version": 1, "models": []}${' '.repeat(70_000)}` },
];
/** The file field of each upload route, for the generated cut-off bodies. */
const UPLOAD_FIELDS: Record<string, string> = Object.fromEntries(UPLOADS(0).map((u) => [u.url.replace('/0/', '/:id/'), u.field]));
const BOUNDARY = 'XyZ';
/** A multipart body: fields, and files with a name and type. */
const multipartBody = (parts: ({ name: string; value: string } | { name: string; filename: string; type: string; data: string })[]) =>
  Buffer.from(parts.map((p) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p.name}"${'filename' in p ? `; filename="${p.filename}"\r\nContent-Type: ${p.type}\r\n\r\n${p.data}` : `\r\n\r\n${p.value}`}\r\n`).join('') + `--${BOUNDARY}--\r\n`);
/** Where a dropped upload may end, short of the closing boundary: at each byte of the parts' heads and the end, and across the file's data. */
const cutPoints = (body: Buffer) => {
  const end = body.length - BOUNDARY.length - 6;
  const edges = Array.from({ length: 200 }, (_, i) => i + 1).concat(Array.from({ length: 60 }, (_, i) => end - i));
  return [...new Set([...edges, ...Array.from({ length: 20 }, (_, i) => Math.floor((end * (i + 1)) / 21))])].filter((i) => i > 0 && i <= end).sort((a, b) => a - b);
};

/** Every slot gets these; the generated run below adds the rest of EDGE_VALUES and more. */
const SWEEP = ['a\u0000b', 2147483648, -2147483649];

const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v) ?? String(v));

async function send(slot: Slot, value: unknown) {
  const { op } = slot;
  const headers: Record<string, string> = op.access === 'agent' ? bearer(agentToken) : bearer(admin);
  let url = op.url;
  for (const p of op.params) url = url.replace(`:${p}`, encodeURIComponent(slot.kind === 'param' && slot.name === p ? text(value) : QUIET_ID));
  const query = new URLSearchParams();
  if (slot.kind === 'query') query.set(slot.name, text(value));
  if (slot.kind === 'filter') query.set('filter-json', JSON.stringify([slot.name, FILTER_OPERATORS[text(value).length % FILTER_OPERATORS.length], value]));
  if (query.size) url += `?${query}`;
  let payload: string | Buffer | undefined;
  if (slot.kind === 'body') {
    payload = JSON.stringify(replaceAt(op.body, slot.path!, value)) ?? 'null';
    headers['content-type'] = 'application/json';
  } else if (op.body !== null && op.body !== undefined && op.method !== 'GET' && op.method !== 'DELETE') {
    payload = JSON.stringify(op.body);
    headers['content-type'] = 'application/json';
  }
  if (slot.kind === 'basic') {
    const login = slot.name === 'login' ? text(value) : 'admin';
    const password = slot.name === 'password' ? text(value) : 'x';
    headers.authorization = basic(login, password);
  }
  if (slot.kind === 'multipart') {
    // A body cut off in the middle of a part, as a dropped upload leaves it.
    headers['content-type'] = 'multipart/form-data; boundary=XyZ';
    // In the route's own file field, long enough to be cut while the route reads it (issue 52).
    payload = Buffer.from(`--XyZ\r\nContent-Disposition: form-data; name="${UPLOAD_FIELDS[op.url] ?? 'file'}"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n${text(value).slice(0, 5000)}${'x'.repeat(70_000)}`);
  }
  return t.app.inject({ method: op.method as 'GET', url, headers, payload });
}

function check(slot: Slot, value: unknown, res: Awaited<ReturnType<typeof send>>) {
  const where = `${slot.op.method} ${slot.op.url} ${slot.kind} ${slot.name} = ${text(value).slice(0, 80)}`;
  expect(res.statusCode, `${where}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
  if (res.statusCode >= 400) expect(typeof res.json().code, where).toBe('string');
}

describe('hostile input on every route', () => {
  it('finds the routes of the route table', () => {
    expect(new Set(slots.map((s) => `${s.op.method} ${s.op.url}`)).size).toBeGreaterThan(80);
  });

  it('answers each slot of each route with a 4xx (never a 5xx) for a NUL or an id past 2^31', async () => {
    const failures: string[] = [];
    for (const [i, slot] of slots.entries()) {
      // One value a slot, in turn, keeps the sweep to a few seconds; the generated run adds the rest.
      const value = SWEEP[i % SWEEP.length];
      try {
        check(slot, value, await send(slot, value));
      } catch (err) {
        failures.push((err as Error).message.split('\n')[0]!);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('refuses a service file of 70,000 serials, naming the file', async () => {
    const serials = Array.from({ length: 70_000 }, (_, i) => `SN${i}`).join('\n');
    const payload = Buffer.from(`--XyZ\r\nContent-Disposition: form-data; name="serialNumbers"; filename="s.txt"\r\nContent-Type: text/plain\r\n\r\n${serials}\r\n--XyZ--\r\n`);
    const res = await t.app.inject({ method: 'POST', url: '/api/service/set-active-status', headers: { ...bearer(admin), 'content-type': 'multipart/form-data; boundary=XyZ' }, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0].field).toBe('serialNumbers');
  });

  it('answers an upload cut off anywhere with a 400 that says so, on every upload route (issue 52, finding 7)', async () => {
    const [locationId] = await sqlRows<{ id: number }>(t.ctx.db, sql`SELECT id FROM locations LIMIT 1`);
    const failures: string[] = [];
    for (const { url, field, name, type, data } of UPLOADS(locationId!.id)) {
      const full = multipartBody([{ name: 'secretKey', value: 'x' }, { name: field, filename: name, type, data }]);
      for (const cut of cutPoints(full)) {
        const res = await t.app.inject({ method: 'POST', url, headers: { ...bearer(admin), 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'accept-language': 'ru' }, payload: full.subarray(0, cut) });
        if (res.statusCode !== 400 || res.json().details?.[0]?.field !== 'body') failures.push(`${url} cut at ${cut}/${full.length}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        else expect(res.json().details[0].message).toBe('Загрузка неполная или повреждена');
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('records a server error whose text holds a NUL', async () => {
    const id = await t.ctx.eventLog.serverError(new Error('bad \u0000 byte'), 'GET', '/api/x\u0000y', null);
    expect(id).toBeGreaterThan(0);
  });

  it('answers generated hostile values with a 4xx or a success, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...slots), hostileValue, async (slot, value) => check(slot, value, await send(slot, value))),
      { numRuns: 300 },
    );
  }, 120_000);
});
