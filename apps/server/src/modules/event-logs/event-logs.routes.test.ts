import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { locations } from '../../db/schema/locations.ts';
import { roleGrants, roles } from '../../db/schema/roles.ts';
import { users } from '../../db/schema/users.ts';
import { bearer, createUser, signedInAs, signIn, testApp } from '../../test/test-app.ts';
import { runList } from '../../lib/list-run.ts';
import { eventLogsListSql } from './event-logs.list.ts';

const t = testApp();
let defaultId: number;
let north: number; // below DEFAULT
let south: number; // a root of its own
const ids: Record<string, number> = {};

const get = (url: string, token?: string) => t.app.inject({ url, headers: token ? bearer(token) : {} });
const page = (token: string, filter?: unknown, extra = '') =>
  get(`/api/event-logs/page?page=100,1${filter ? `&filter-json=${encodeURIComponent(JSON.stringify(filter))}` : ''}${extra}`, token);

beforeAll(async () => {
  const db = t.ctx.db;
  [{ id: defaultId }] = await db.select({ id: locations.id }).from(locations).where(eq(locations.code, 'DEFAULT'));
  [{ id: north }] = await db.insert(locations).values({ code: 'NORTH', name: 'North', parentId: defaultId }).returning({ id: locations.id });
  [{ id: south }] = await db.insert(locations).values({ code: 'SOUTH', name: 'South' }).returning({ id: locations.id });
  const log = t.ctx.eventLog;
  ids.northRun = await log.startRun({ group: 'AGENTS', message: 'north run', locationId: north });
  ids.northChild = await log.child(ids.northRun, { level: 'W', message: 'north range\nsecond line' });
  ids.southRun = await log.startRun({ group: 'AGENTS', message: 'south run', locationId: south });
  ids.unlocated = await log.write({ group: 'SYSTEM', level: 'E', message: 'boom', stackTrace: 'Error: boom\n    at x.ts:1' });
});

describe('event log routes', () => {
  it('401 without a token, 403 without MNU_LOG_EVENTS.READ', async () => {
    for (const url of ['/api/event-logs/page', `/api/event-logs/${ids.northRun}`, '/api/event-groups']) {
      expect((await get(url)).statusCode).toBe(401);
    }
    const [role] = await t.ctx.db.insert(roles).values({ code: 'NOLOGS', name: 'No logs' }).returning();
    await t.ctx.db.insert(roleGrants).values({ roleId: role.id, component: 'MNU_USERS', operation: 'READ' });
    const res = await t.app.inject({
      method: 'POST', url: '/api/users', headers: bearer(t.admin),
      payload: { login: 'nologs', email: 'nologs@example.com', passwordHash: 'Passw0rd!', lastName: 'N', locations: [{ id: defaultId }], grants: [{ id: role.id }] },
    });
    expect(res.statusCode).toBe(200);
    const token = await signIn(t.app, 'nologs', 'Passw0rd!');
    for (const url of ['/api/event-logs/page', `/api/event-logs/${ids.northRun}`, '/api/event-groups']) {
      expect((await get(url, token)).statusCode).toBe(403);
    }
  });

  it('400 on bad input', async () => {
    expect((await get('/api/event-logs/page?page=x', t.admin)).statusCode).toBe(400);
    expect((await page(t.admin, ['stackTrace', 'contains', 'x'])).statusCode).toBe(400);
    expect((await page(t.admin, ['logLevel', '<', 3, 'x'])).statusCode).toBe(400);
    expect((await get('/api/event-logs/page?sort=nope,ASC', t.admin)).statusCode).toBe(400);
    expect((await get('/api/event-logs/abc', t.admin)).statusCode).toBe(400);
    expect((await get('/api/event-logs/0', t.admin)).statusCode).toBe(400);
    expect((await get('/api/event-logs/999999999', t.admin)).statusCode).toBe(404);
  });

  it('lists with the list protocol; top-level only is a filter on parentId', async () => {
    const all = (await page(t.admin)).json();
    const top = (await page(t.admin, ['parentId', '=', null])).json();
    expect(all.pageRows.map((r: { id: number }) => r.id)).toContain(ids.northChild);
    expect(top.pageRows.map((r: { id: number }) => r.id)).not.toContain(ids.northChild);
    expect(top.totalRows).toBe(all.totalRows - 1);
    const run = top.pageRows.find((r: { id: number }) => r.id === ids.northRun);
    expect(run).toMatchObject({ parentId: null, eventGroupName: 'AGENTS', logLevel: 'P', childrenCount: 1, message: 'north run' });
    expect(new Date(run.logDatetime).toISOString()).toBe(run.logDatetime);
    const children = (await page(t.admin, ['parentId', '=', ids.northRun])).json();
    expect(children.pageRows).toEqual([expect.objectContaining({ id: ids.northChild, logLevel: 'W', parentId: ids.northRun })]);
    const sorted = (await get('/api/event-logs/page?sort=id,ASC&page=2,1', t.admin)).json();
    expect(sorted.pageRows[0].id).toBeLessThan(sorted.pageRows[1].id);
    const errors = (await page(t.admin, [['logLevel', '=', 'E'], 'and', ['message', 'contains', 'boom']])).json();
    expect(errors.pageRows.map((r: { id: number }) => r.id)).toEqual([ids.unlocated]);
  });

  it('counts exactly up to the list\'s count cap and says "more" above it', async () => {
    const q = { page: '2,1', 'filter-json': JSON.stringify(['parentId', '=', null]) };
    const exact = await runList(t.ctx.db, eventLogsListSql, q);
    expect(exact.totalRows).toBeGreaterThan(2);
    expect(exact.totalCapped).toBeUndefined();
    // A cap of 2 (another filter text, so no count is kept from the request before).
    const capped = await runList(t.ctx.db, { ...eventLogsListSql, countLimit: 2 }, { ...q, 'filter-json': JSON.stringify([['parentId', '=', null]]) });
    expect(capped.pageRows).toHaveLength(2);
    expect(capped).toMatchObject({ totalRows: 2, totalCapped: true });
    const small = await runList(t.ctx.db, { ...eventLogsListSql, countLimit: 1000 }, q);
    expect(small.totalRows).toBe(exact.totalRows);
  });

  it('scopes to the caller: own locations; records without a location only at the DEFAULT root', async () => {
    const northOp = await signedInAs(t, { login: 'op-north', role: 'OPERATOR', locationIds: [north] });
    const defaultOp = await signedInAs(t, { login: 'op-default', role: 'OPERATOR', locationIds: [defaultId] });
    const seen = async (token: string) => ((await page(token)).json().pageRows as { id: number }[]).map((r) => r.id);
    const n = await seen(northOp);
    expect(n).toEqual(expect.arrayContaining([ids.northRun, ids.northChild]));
    expect(n).not.toContain(ids.southRun);
    expect(n).not.toContain(ids.unlocated);
    const d = await seen(defaultOp);
    expect(d).toEqual(expect.arrayContaining([ids.northRun, ids.unlocated]));
    expect(d).not.toContain(ids.southRun);
    // The default administrator sees everything, SOUTH (a stray root) too, so that nothing can
    // be hidden from them (issue 14); an operator at DEFAULT sees only what is below DEFAULT.
    expect(await seen(t.admin)).toContain(ids.southRun);
    expect((await get(`/api/event-logs/${ids.southRun}`, t.admin)).statusCode).toBe(200);
    expect((await get(`/api/event-logs/${ids.southRun}`, defaultOp)).statusCode).toBe(403);
    expect((await get(`/api/event-logs/${ids.unlocated}`, northOp)).statusCode).toBe(403);
    expect((await get(`/api/event-logs/${ids.northRun}`, northOp)).statusCode).toBe(200);
    const groups = (await get('/api/event-groups', northOp)).json();
    expect(groups.pageRows.map((g: { code: string }) => g.code)).toContain('AGENTS');
  });

  it('detail: message lines, parent, children; stack trace lines for ADMIN and DEVELOPER only', async () => {
    const child = (await get(`/api/event-logs/${ids.northChild}`, t.admin)).json();
    expect(child).toMatchObject({ messageLines: ['north range', 'second line'], parentId: ids.northRun, parent: { id: ids.northRun, message: 'north run' }, children: [] });
    const run = (await get(`/api/event-logs/${ids.northRun}`, t.admin)).json();
    expect(run.children.map((c: { id: number }) => c.id)).toEqual([ids.northChild]);
    expect(run.eventGroup).toMatchObject({ code: 'AGENTS' });
    expect((await get(`/api/event-logs/${ids.unlocated}`, t.admin)).json().stackTraceLines).toEqual(['Error: boom', '    at x.ts:1']);
    const op = await signIn(t.app, 'op-default', 'Passw0rd!');
    const asOp = (await get(`/api/event-logs/${ids.unlocated}`, op)).json();
    expect(asOp).toMatchObject({ message: 'boom', stackTraceLines: [] });
    expect(JSON.stringify(asOp)).not.toContain('x.ts');
  });

  it('creating a user is logged with the acting user and a link to the new user', async () => {
    const id = await createUser(t.app, t.admin, { login: 'logged-one', role: 'OPERATOR', locationIds: [north] });
    const [adminUser] = await t.ctx.db.select().from(users).where(eq(users.login, 'admin'));
    const rows = (await page(t.admin, [['objectClass', '=', 'UserDao'], 'and', ['objectId', '=', id], 'and', ['messageCode', '=', 'user.created']])).json().pageRows;
    expect(rows).toEqual([expect.objectContaining({ userId: adminUser.id, userLogin: 'admin', objectClass: 'UserDao', objectId: id, logLevel: 'I', eventGroupName: 'USERS' })]);
    const detail = (await get(`/api/event-logs/${rows[0].id}`, t.admin)).json();
    expect(detail.user).toMatchObject({ id: adminUser.id, login: 'admin' });
  });

  it('a server error is answered without internals and logged with its stack trace', async () => {
    const original = t.ctx.eventLog.groups;
    t.ctx.eventLog.groups = async () => {
      throw new Error('database exploded');
    };
    try {
      const res = await get('/api/event-groups?access_token=secret', t.admin);
      expect(res.statusCode).toBe(500);
      expect(res.body).not.toContain('exploded');
    } finally {
      t.ctx.eventLog.groups = original;
    }
    await new Promise((r) => setTimeout(r, 50));
    const [row] = (await page(t.admin, ['messageCode', '=', 'server.error'])).json().pageRows;
    expect(row).toMatchObject({ logLevel: 'E', eventGroupName: 'SYSTEM', message: 'GET /api/event-groups: database exploded' });
    const detail = (await get(`/api/event-logs/${row.id}`, t.admin)).json();
    expect(detail.stackTraceLines[0]).toBe('Error: database exploded');
    expect(JSON.stringify(detail)).not.toContain('secret');
  });
});
