import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bearer, createUser, signIn, testApp } from '../../test/test-app.ts';
import { addLocation } from '../../test/scope-fixture.ts';

/**
 * Whose a dictionary is (issue 39): in cloud mode two customers, ACME and BETA, each with an
 * administrator. A customer's dictionaries, their items and values are its own; the system
 * dictionaries (LOCATION's attributes included) are read by all and changed by the default
 * administrator alone. The matrix (test/authorization-routes-dictionaries.ts) runs every route.
 */
const t = testApp({ cloud: true });
let acme: number;
let beta: number;
let acmeAdmin: string;
let betaAdmin: string;

type Payload = Record<string, unknown>;
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: Payload, lang = 'en') =>
  t.app.inject({ method, url, payload, headers: { ...bearer(token), 'accept-language': lang } });
const ok = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: Payload) => {
  const res = await call(method, url, token, payload);
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.body ? res.json() : null;
};
const dictionaryRow = async (id: number) => (await t.ctx.db.execute(sql`SELECT code, name FROM dictionaries WHERE id = ${id}`)).rows[0];

beforeAll(async () => {
  acme = await addLocation(t.ctx.db, 'ACME');
  beta = await addLocation(t.ctx.db, 'BETA');
  await createUser(t.app, t.admin, { login: 'acme-admin', role: 'ADMIN', locationIds: [acme] });
  await createUser(t.app, t.admin, { login: 'beta-admin', role: 'ADMIN', locationIds: [beta] });
  acmeAdmin = await signIn(t.app, 'acme-admin@example.com', 'Passw0rd!');
  betaAdmin = await signIn(t.app, 'beta-admin@example.com', 'Passw0rd!');
});

describe("a customer's dictionaries", () => {
  it("are its own: another customer's administrator neither lists, reads, renames nor deletes them", async () => {
    const mine = await ok('POST', '/api/dictionaries', betaAdmin, { code: 'BETA_COSTS', name: 'Cost centres' });
    expect(mine.location).toMatchObject({ id: beta, code: 'BETA' });
    const item = await ok('POST', '/api/dictionary-items', betaAdmin, { dictionaryId: mine.id, code: 'C1', name: 'Centre 1' });

    const list = await ok('GET', '/api/dictionaries?page=100,1', acmeAdmin);
    expect(list.pageRows.map((d: { code: string }) => d.code)).not.toContain('BETA_COSTS');
    expect(list.pageRows.map((d: { code: string }) => d.code)).toContain('PRINTER_TYPE');
    expect((await ok('GET', '/api/dictionaries?page=100,1', t.admin)).pageRows.map((d: { code: string }) => d.code)).toContain('BETA_COSTS');

    for (const url of [`/api/dictionaries/${mine.id}`, '/api/dictionaries/by-code/BETA_COSTS', `/api/dictionaries/${mine.id}/items`,
      '/api/dictionary-items/by-code/BETA_COSTS', `/api/dictionary-items/${item.id}`, `/api/dictionary-items/${item.id}/attribute-values`]) {
      expect([403, 404], url).toContain((await call('GET', url, acmeAdmin)).statusCode);
    }
    const rename = await call('PUT', `/api/dictionaries/${mine.id}`, acmeAdmin, { code: 'TAKEN', name: 'Taken' }, 'ru');
    expect(rename.statusCode).toBe(403);
    expect(rename.json().message).toBe('Справочник принадлежит расположению вне ваших расположений');
    expect((await call('DELETE', `/api/dictionaries/${mine.id}`, acmeAdmin)).statusCode).toBe(403);
    expect(await dictionaryRow(mine.id)).toEqual({ code: 'BETA_COSTS', name: 'Cost centres' });

    expect((await call('POST', `/api/dictionaries/${mine.id}/attributes`, acmeAdmin, { code: 'X', name: 'X', valueType: 'S' })).statusCode).toBe(403);
    expect((await call('POST', '/api/dictionary-items', acmeAdmin, { dictionaryId: mine.id, code: 'C2', name: 'Planted' })).statusCode).toBe(403);
    expect((await call('PUT', `/api/dictionary-items/${item.id}`, acmeAdmin, { name: 'Renamed' })).statusCode).toBe(403);
    expect((await call('DELETE', `/api/dictionary-items/${item.id}`, acmeAdmin)).statusCode).toBe(403);
    expect((await ok('GET', `/api/dictionary-items/${item.id}`, betaAdmin)).name).toBe('Centre 1');
  });

  it("are made at the caller's location or one in its scope, never another customer's", async () => {
    const own = await ok('POST', '/api/dictionaries', acmeAdmin, { code: 'ACME_OWN', name: 'Own', location: { id: acme } });
    expect(own.location.id).toBe(acme);
    const res = await call('POST', '/api/dictionaries', acmeAdmin, { code: 'ACME_THERE', name: 'There', location: { id: beta } }, 'ru');
    expect(res.statusCode).toBe(403);
    const move = await call('PUT', `/api/dictionaries/${own.id}`, acmeAdmin, { code: 'ACME_OWN', name: 'Own', location: { id: beta } });
    expect(move.statusCode).toBe(403);
    expect((await ok('GET', `/api/dictionaries/${own.id}`, acmeAdmin)).location.id).toBe(acme);
    // Its own: changed, extended and deleted by its customer.
    await ok('POST', `/api/dictionaries/${own.id}/attributes`, acmeAdmin, { code: 'A', name: 'A', valueType: 'S' });
    await ok('PUT', `/api/dictionaries/${own.id}`, acmeAdmin, { code: 'ACME_OWN2', name: 'Own' });
    expect((await call('DELETE', `/api/dictionaries/${own.id}`, acmeAdmin)).statusCode).toBe(204);
  });

  it('keep a location that owns one from being deleted', async () => {
    const shop = await addLocation(t.ctx.db, 'ACME_SHOP', 'ACME');
    await ok('POST', '/api/dictionaries', acmeAdmin, { code: 'SHOP_LIST', name: 'Shop', location: { id: shop } });
    const res = await call('DELETE', `/api/dictionary-items/${shop}`, acmeAdmin);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('The location cannot be deleted: it still has 1 dictionary(ies)');
  });
});

describe('system dictionaries', () => {
  it('are read by every customer and changed by the default administrator alone', async () => {
    const printer = await ok('GET', '/api/dictionaries/by-code/PRINTER_TYPE', acmeAdmin);
    expect(printer).toMatchObject({ isSystem: true, location: null });
    const rename = await call('PUT', `/api/dictionaries/${printer.id}`, acmeAdmin, { code: 'PRINTER_TYPE', name: 'Hijacked' });
    expect(rename.statusCode).toBe(403);
    expect(rename.json().message).toBe('Only an administrator of the DEFAULT location can change a system dictionary');
    expect((await dictionaryRow(printer.id))!.name).toBe('Printer types');

    const mfp = (await ok('GET', '/api/dictionary-items/by-code/PRINTER_TYPE', acmeAdmin)).pageRows.find((i: { code: string }) => i.code === 'MFP');
    expect((await call('PUT', `/api/dictionary-items/${mfp.id}`, acmeAdmin, { name: 'Hijacked' })).statusCode).toBe(403);
    expect((await call('POST', '/api/dictionary-items', acmeAdmin, { dictionaryId: printer.id, code: 'PLANTED', name: 'x' })).statusCode).toBe(403);
    expect((await call('POST', `/api/dictionaries/${printer.id}/attributes`, acmeAdmin, { code: 'X', name: 'X', valueType: 'S' })).statusCode).toBe(403);
    expect((await ok('GET', `/api/dictionary-items/${mfp.id}`, acmeAdmin)).name).toBe('Multifunction device');
    expect((await ok('PUT', `/api/dictionaries/${printer.id}`, t.admin, { code: 'PRINTER_TYPE', name: 'Printer types' })).name).toBe('Printer types');
  });

  it("keep their location attributes: a customer cannot delete one and with it another customer's values", async () => {
    const location = await ok('GET', '/api/dictionaries/by-code/LOCATION', acmeAdmin);
    const attr = await ok('POST', `/api/dictionaries/${location.id}/attributes`, t.admin, { code: 'CONTRACT', name: 'Contract', valueType: 'S' });
    await ok('POST', `/api/dictionary-items/${beta}/attribute-values`, betaAdmin, { attributeId: attr.id, stringValue: 'B-42' });
    await ok('POST', `/api/dictionary-items/${acme}/attribute-values`, acmeAdmin, { attributeId: attr.id, stringValue: 'A-7' });

    const del = await call('DELETE', `/api/dictionaries/${location.id}/attributes/${attr.id}`, acmeAdmin);
    expect(del.statusCode).toBe(403);
    const retype = await call('PUT', `/api/dictionaries/${location.id}/attributes/${attr.id}`, acmeAdmin, { code: 'CONTRACT', name: 'Contract', valueType: 'S', versioned: true });
    expect(retype.statusCode).toBe(403);
    expect((await call('POST', `/api/dictionaries/${location.id}/attributes`, acmeAdmin, { code: 'MINE', name: 'Mine', valueType: 'S' })).statusCode).toBe(403);
    expect((await ok('GET', `/api/dictionary-items/${beta}/attribute-values`, betaAdmin)).pageRows).toEqual([expect.objectContaining({ stringValue: 'B-42' })]);
    // Each customer's value is its own to change; the other's is out of reach.
    expect((await call('POST', `/api/dictionary-items/${beta}/attribute-values`, acmeAdmin, { attributeId: attr.id, stringValue: 'mine' })).statusCode).toBe(403);
    expect((await ok('GET', `/api/dictionary-items/${acme}/attribute-values`, acmeAdmin)).pageRows).toEqual([expect.objectContaining({ stringValue: 'A-7' })]);
  });

  it("count only the caller's locations as LOCATION's items", async () => {
    const all = (await ok('GET', '/api/dictionaries/by-code/LOCATION', t.admin)).itemCount;
    expect((await ok('GET', '/api/dictionaries/by-code/LOCATION', acmeAdmin)).itemCount).toBeLessThan(all);
    const row = (await ok('GET', '/api/dictionaries?page=100,1', acmeAdmin)).pageRows.find((d: { code: string }) => d.code === 'LOCATION');
    const mine = (await ok('GET', '/api/dictionary-items/by-code/LOCATION', acmeAdmin)).pageRows.length;
    expect(row.itemCount).toBe(mine);
  });
});
