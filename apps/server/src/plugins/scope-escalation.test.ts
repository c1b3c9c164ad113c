import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bearer, createUser, signIn, testApp, userAsInput } from '../test/test-app.ts';
import { addLocation } from '../test/scope-fixture.ts';

/**
 * Escalations a location administrator tried against the running server (issue 14), each
 * answered by the rule of docs/security.md it broke. The tree:
 *
 *   DEFAULT ── LOC_A ── LOC_A1        adminA: ADMIN at LOC_A (a location administrator)
 *          └── LOC_B                  root: the seeded admin at DEFAULT (the default administrator)
 */
const t = testApp({ signIn: false });
let root: string;
let adminA: string;
const loc = { DEFAULT: 1, A: 0, A1: 0, B: 0 };
const roleId: Record<string, number> = {};
const PASSWORD = 'Passw0rd!';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, token: string, payload?: unknown, lang = 'en') =>
  t.app.inject({ method, url, payload: payload as never, headers: { ...bearer(token), 'accept-language': lang } });

const asInput = (token: string, id: number, over: Record<string, unknown> = {}) => userAsInput(t.app, token, id, over);

beforeAll(async () => {
  loc.A = await addLocation(t.ctx.db, 'LOC_A');
  loc.A1 = await addLocation(t.ctx.db, 'LOC_A1', 'LOC_A');
  loc.B = await addLocation(t.ctx.db, 'LOC_B');
  root = await signIn(t.app);
  for (const r of (await call('GET', '/api/managed-roles-v/', root)).json().pageRows) roleId[r.code] = r.id;
  await createUser(t.app, root, { login: 'adminA', password: PASSWORD, role: 'ADMIN', locationIds: [loc.A] });
  adminA = await signIn(t.app, 'adminA', PASSWORD);
});

describe('1. instance settings belong to the default administrator', () => {
  it('a location ADMIN cannot change them (403), the default admin can', async () => {
    const smtp = [{ code: 'SMTP_HOST', stringValue: 'attacker.example' }, { code: 'SMTP_PORT', numericValue: 2525 }];
    const res = await call('PUT', '/api/settings', adminA, smtp);
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().code).toBe('FORBIDDEN');
    const stored = await t.ctx.db.execute(sql`SELECT string_value FROM settings WHERE code = 'SMTP_HOST'`);
    expect((stored.rows[0] as { string_value: string | null }).string_value).not.toBe('attacker.example');
    const ru = await call('PUT', '/api/settings', adminA, smtp, 'ru');
    expect(ru.json().message).toBe('Настройки экземпляра может менять только администратор расположения DEFAULT');
    expect((await call('PUT', '/api/settings', root, [{ code: 'LOG_STORAGE_DAYS', numericValue: 30 }])).statusCode).toBe(200);
  });

  it('a DEVELOPER at DEFAULT is a default administrator too', async () => {
    await createUser(t.app, root, { login: 'devRoot', password: PASSWORD, role: 'DEVELOPER', locationIds: [loc.DEFAULT] });
    const dev = await signIn(t.app, 'devRoot', PASSWORD);
    expect((await call('PUT', '/api/settings', dev, [{ code: 'LOG_STORAGE_DAYS', numericValue: 31 }])).statusCode).toBe(200);
  });
});

describe('2. a user with locations outside the caller is read-only to it', () => {
  let shared: number;
  beforeAll(async () => {
    shared = await createUser(t.app, root, { login: 'sharedAB', password: PASSWORD, role: 'OPERATOR', locationIds: [loc.A, loc.B] });
  });

  it('cannot be given a new password and the ADMIN role (403 OUT_OF_SCOPE), and keeps its password', async () => {
    const res = await call('PUT', `/api/users/${shared}`, adminA, await asInput(adminA, shared, { passwordHash: 'Taken0ver!', grants: [{ id: roleId.ADMIN }] }));
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toEqual({ code: 'OUT_OF_SCOPE', message: 'This user also belongs to locations outside yours; you can only view them' });
    await signIn(t.app, 'sharedAB', PASSWORD);
    const roles = (await call('GET', `/api/users/${shared}`, root)).json().grants.map((g: { code: string }) => g.code);
    expect(roles).toEqual(['OPERATOR']);
  });

  it('cannot be changed in any other way or deleted, but can be read', async () => {
    const rename = await call('PUT', `/api/users/${shared}`, adminA, await asInput(adminA, shared, { lastName: 'Renamed' }), 'ru');
    expect(rename.statusCode).toBe(403);
    expect(rename.json().message).toBe('Этот пользователь относится и к расположениям вне ваших; его можно только просматривать');
    expect((await call('DELETE', `/api/users/${shared}`, adminA)).statusCode).toBe(403);
    expect((await call('GET', `/api/users/${shared}`, adminA)).statusCode).toBe(200);
  });

  it('the default admin changes it as before', async () => {
    expect((await call('PUT', `/api/users/${shared}`, root, await asInput(root, shared, { lastName: 'Changed' }))).statusCode).toBe(200);
  });

  it('a user wholly inside the caller stays the caller to manage', async () => {
    const own = await createUser(t.app, root, { login: 'ownA1', role: 'OPERATOR', locationIds: [loc.A1] });
    expect((await call('PUT', `/api/users/${own}`, adminA, await asInput(adminA, own, { passwordHash: 'NewPass1!' }))).statusCode).toBe(200);
    expect((await call('DELETE', `/api/users/${own}`, adminA)).statusCode).toBe(204);
  });
});

describe('3. a location ADMIN cannot take a location out of the tree', () => {
  const move = (token: string, id: number, parentId: number | null) => call('PUT', `/api/dictionary-items/${id}`, token, { parentId });

  it('cannot make its own location a root (403), nor move it elsewhere', async () => {
    const res = await move(adminA, loc.A, null);
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().code).toBe('OUT_OF_SCOPE');
    expect((await move(adminA, loc.A, loc.A1)).statusCode).toBeGreaterThanOrEqual(403);
    expect((await move(adminA, loc.A, loc.B)).statusCode).toBe(403);
    const row = await t.ctx.db.execute(sql`SELECT parent_id FROM locations WHERE id = ${loc.A}`);
    expect(Number((row.rows[0] as { parent_id: number }).parent_id)).toBe(loc.DEFAULT);
  });

  it('cannot make a location below its own a root', async () => {
    const res = await move(adminA, loc.A1, null);
    expect(res.statusCode).toBe(403);
    expect((await call('GET', `/api/dictionary-items/${loc.A1}`, root)).json().parentId).toBe(loc.A);
  });

  it('moves locations inside its own tree as before', async () => {
    const c = (await call('POST', '/api/dictionary-items', adminA, { dictionaryId: 1, code: 'LOC_A2', name: 'A2', parentId: loc.A })).json();
    expect((await move(adminA, c.id, loc.A1)).statusCode).toBe(200);
    expect((await call('DELETE', `/api/dictionary-items/${c.id}`, adminA)).statusCode).toBe(204);
  });

  it('the default admin sees a stray root and re-attaches it', async () => {
    const stray = await addLocation(t.ctx.db, 'STRAY', null);
    const rows = (await call('GET', '/api/user-locations/', root)).json().pageRows.map((r: { id: number }) => r.id);
    expect(rows).toContain(stray);
    expect((await call('GET', `/api/dictionary-items/${stray}`, root)).statusCode).toBe(200);
    expect((await move(root, stray, loc.DEFAULT)).statusCode).toBe(200);
    // and may also make one, being above everything
    expect((await move(root, stray, null)).statusCode).toBe(200);
    expect((await move(root, stray, loc.DEFAULT)).statusCode).toBe(200);
  });
});
