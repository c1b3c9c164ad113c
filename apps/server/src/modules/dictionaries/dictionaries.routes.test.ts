import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, signedInAs, testApp } from '../../test/test-app.ts';

/** Dictionaries, their attributes, items and (versioned) attribute values (issue 7). */
const t = testApp();
let operator: string;

type Payload = Record<string, unknown>;
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string | null, payload?: Payload, lang = 'en') =>
  t.app.inject({ method, url, payload, headers: { ...(token ? bearer(token) : {}), 'accept-language': lang } });

beforeAll(async () => {
  operator = await signedInAs(t, { login: 'oper', role: 'OPERATOR', locationIds: [1] });
});

describe('dictionaries', () => {
  it('seeds the system dictionaries with their items in both languages', async () => {
    const res = await call('GET', '/api/dictionaries?page=100,1', t.admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().pageRows.map((d: { code: string }) => d.code).sort()).toEqual(
      ['COLOR_TYPE', 'FILE_EXTENSION', 'LOCATION', 'NOTIFICATION_TYPE', 'PAPER_FORMAT', 'PRINTER_TYPE', 'RPT_PERIOD_TYPE', 'STATUS'],
    );
    const notif = (await call('GET', '/api/dictionary-items/by-code/NOTIFICATION_TYPE', operator)).json();
    expect(notif.pageRows.map((i: { code: string }) => i.code)).toEqual(['STATUS_CHANGE', 'IP_CHANGE', 'MIN_CONSUMABLE_LEVEL', 'PART_REPLACEMENT', 'REPORT', 'COUNTERS', 'SUPPLIES_TO_ORDER', 'AGENT_SILENT']);
    const period = (await call('GET', '/api/dictionary-items/by-code/RPT_PERIOD_TYPE', operator)).json().pageRows;
    expect(period.find((i: { code: string }) => i.code === 'LAST_MONTH')).toMatchObject({ name: 'Last month', nameRu: 'Прошлый месяц' });
    const status = (await call('GET', '/api/dictionaries/by-code/STATUS', operator)).json();
    expect(status.attributes).toEqual([expect.objectContaining({ code: 'COLOR', valueType: 'S', versioned: false })]);
    const ok = (await call('GET', '/api/dictionary-items/by-code/STATUS', operator)).json().pageRows.find((i: { code: string }) => i.code === 'OK');
    expect((await call('GET', `/api/dictionary-items/${ok.id}/attribute-values`, operator)).json().pageRows[0]).toMatchObject({ stringValue: 'green', validFrom: null });
  });

  it('needs a session, and MNU_DICTIONARIES to manage', async () => {
    expect((await call('GET', '/api/dictionaries', null)).statusCode).toBe(401);
    expect((await call('GET', '/api/dictionary-items/by-code/STATUS', null)).statusCode).toBe(401);
    expect((await call('GET', '/api/dictionaries', operator)).statusCode).toBe(403);
    expect((await call('POST', '/api/dictionaries', operator, { code: 'X', name: 'X' })).statusCode).toBe(403);
    const printer = (await call('GET', '/api/dictionary-items/by-code/PRINTER_TYPE', operator)).json().pageRows[0];
    expect((await call('PUT', `/api/dictionary-items/${printer.id}`, operator, { name: 'x' })).statusCode).toBe(403);
    expect((await call('GET', '/api/dictionary-items/by-code/NOPE', operator)).statusCode).toBe(404);
  });

  it('creates, changes and deletes a dictionary with items; validates in both languages', async () => {
    const bad = await call('POST', '/api/dictionaries', t.admin, { code: '', name: 'N'.repeat(251) }, 'ru');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual(expect.arrayContaining([{ field: 'code', message: 'Обязательное поле' }, { field: 'name', message: 'Слишком длинное значение' }]));
    const d = (await call('POST', '/api/dictionaries', t.admin, { code: 'FLOORS', name: 'Floors', nameRu: 'Этажи', hierarchical: true })).json();
    expect(d).toMatchObject({ code: 'FLOORS', hierarchical: true, isSystem: false, itemCount: 0, attributes: [] });
    expect((await call('POST', '/api/dictionaries', t.admin, { code: 'floors', name: 'Again' })).json().details[0].message).toBe('A dictionary with this code already exists');

    const b1 = (await call('POST', '/api/dictionary-items', t.admin, { dictionaryId: d.id, code: 'B1', name: 'Building 1' })).json();
    const f1 = (await call('POST', '/api/dictionary-items', t.admin, { dictionaryId: d.id, code: 'F1', name: 'Floor 1', parentId: b1.id })).json();
    expect(f1).toMatchObject({ parentId: b1.id, parent: { code: 'B1' }, dictionaryCode: 'FLOORS', location: null });
    const dup = await call('POST', '/api/dictionary-items', t.admin, { dictionaryId: d.id, code: 'b1', name: 'x' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().details[0].message).toBe('This dictionary already has an item with this code');
    // An item id names one item across dictionaries and locations.
    const loc = (await call('GET', '/api/dictionary-items/1', t.admin)).json();
    expect(loc.dictionaryCode).toBe('LOCATION');
    expect(b1.id).not.toBe(1);

    const cycle = await call('PUT', `/api/dictionary-items/${b1.id}`, t.admin, { parentId: f1.id });
    expect(cycle.statusCode).toBe(422);
    expect(cycle.json().message).toBe('An item cannot be moved under itself or under one of its own items');
    const foreign = await call('PUT', `/api/dictionary-items/${f1.id}`, t.admin, { parentId: 1 });
    expect(foreign.json().details[0].message).toBe('The parent must be an item of the same dictionary');

    const hasChildren = await call('DELETE', `/api/dictionary-items/${b1.id}`, t.admin);
    expect(hasChildren.statusCode).toBe(409);
    expect(hasChildren.json().message).toBe('The item still has 1 child items');
    expect((await call('DELETE', `/api/dictionary-items/${f1.id}`, t.admin)).statusCode).toBe(204);
    expect((await call('PUT', `/api/dictionaries/${d.id}`, t.admin, { code: 'FLOORS2', name: 'Floors' })).json().code).toBe('FLOORS2');
    expect((await call('DELETE', `/api/dictionaries/${d.id}`, t.admin)).statusCode).toBe(204);
    expect((await call('GET', `/api/dictionary-items/${b1.id}`, t.admin)).statusCode).toBe(404);
  });

  it('keeps system dictionaries', async () => {
    const status = (await call('GET', '/api/dictionaries/by-code/STATUS', t.admin)).json();
    expect((await call('DELETE', `/api/dictionaries/${status.id}`, t.admin)).statusCode).toBe(409);
    const recode = await call('PUT', `/api/dictionaries/${status.id}`, t.admin, { code: 'STATE', name: 'Statuses' });
    expect(recode.statusCode).toBe(422);
    expect(recode.json().details[0].message).toBe('A system dictionary cannot be deleted or have its code changed');
    expect((await call('PUT', `/api/dictionaries/${status.id}`, t.admin, { code: 'STATUS', name: 'Statuses', nameRu: 'Статусы' })).statusCode).toBe(200);
  });

  it('keeps each value of a versioned attribute with its valid-from date', async () => {
    const dict = (await call('GET', '/api/dictionaries/by-code/PAPER_FORMAT', t.admin)).json();
    const attr = (await call('POST', `/api/dictionaries/${dict.id}/attributes`, t.admin, { code: 'PRICE', name: 'Price per page', valueType: 'N', versioned: true })).json();
    expect(attr).toMatchObject({ code: 'PRICE', valueType: 'N', versioned: true });
    const dupAttr = await call('POST', `/api/dictionaries/${dict.id}/attributes`, t.admin, { code: 'price', name: 'x', valueType: 'S' });
    expect(dupAttr.json().details[0].message).toBe('This dictionary already has an attribute with this code');
    const a4 = (await call('GET', '/api/dictionary-items/by-code/PAPER_FORMAT', t.admin)).json().pageRows.find((i: { code: string }) => i.code === 'A4');

    const noDate = await call('POST', `/api/dictionary-items/${a4.id}/attribute-values`, t.admin, { attributeId: attr.id, numericValue: 1.5 });
    expect(noDate.json().details[0].message).toBe('A versioned attribute needs the date the value becomes valid');
    const wrongType = await call('POST', `/api/dictionary-items/${a4.id}/attribute-values`, t.admin, { attributeId: attr.id, validFrom: '2025-01-01', stringValue: 'cheap' }, 'ru');
    expect(wrongType.json().details[0]).toEqual({ field: 'numericValue', message: 'Введите значение нужного типа' });

    await call('POST', `/api/dictionary-items/${a4.id}/attribute-values`, t.admin, { attributeId: attr.id, validFrom: '2025-01-01', numericValue: 1.5 });
    await call('POST', `/api/dictionary-items/${a4.id}/attribute-values`, t.admin, { attributeId: attr.id, validFrom: '2026-01-01', numericValue: 1.75 });
    const again = await call('POST', `/api/dictionary-items/${a4.id}/attribute-values`, t.admin, { attributeId: attr.id, validFrom: '2026-01-01', numericValue: 1.8 });
    const values = again.json().pageRows.filter((v: { attributeId: number }) => v.attributeId === attr.id);
    expect(values.map((v: { validFrom: string; numericValue: number }) => [v.validFrom, v.numericValue])).toEqual([['2026-01-01', 1.8], ['2025-01-01', 1.5]]);

    // The type of an attribute with values is fixed; turning versioning off keeps the latest value.
    const retype = await call('PUT', `/api/dictionaries/${dict.id}/attributes/${attr.id}`, t.admin, { code: 'PRICE', name: 'Price', valueType: 'S', versioned: true });
    expect(retype.statusCode).toBe(422);
    await call('PUT', `/api/dictionaries/${dict.id}/attributes/${attr.id}`, t.admin, { code: 'PRICE', name: 'Price', valueType: 'N', versioned: false });
    const after = (await call('GET', `/api/dictionary-items/${a4.id}/attribute-values`, t.admin)).json().pageRows.filter((v: { attributeId: number }) => v.attributeId === attr.id);
    expect(after).toEqual([expect.objectContaining({ validFrom: null, numericValue: 1.8 })]);

    expect((await call('DELETE', `/api/dictionary-items/${a4.id}/attribute-values/${after[0].id}`, t.admin)).statusCode).toBe(204);
    expect((await call('DELETE', `/api/dictionaries/${dict.id}/attributes/${attr.id}`, t.admin)).statusCode).toBe(204);
  });

  it('takes location attribute values with PAGE_LOCATION.EDIT, in scope', async () => {
    const dict = (await call('GET', '/api/dictionaries/by-code/LOCATION', t.admin)).json();
    const attr = (await call('POST', `/api/dictionaries/${dict.id}/attributes`, t.admin, { code: 'OPENED', name: 'Opened', valueType: 'D' })).json();
    const res = await call('POST', '/api/dictionary-items/1/attribute-values', t.admin, { attributeId: attr.id, dateValue: '2024-05-01' });
    expect(res.statusCode).toBe(200);
    expect(res.json().pageRows).toEqual([expect.objectContaining({ attributeId: attr.id, dateValue: '2024-05-01' })]);
    expect((await call('POST', '/api/dictionary-items/1/attribute-values', operator, { attributeId: attr.id, dateValue: '2024-05-02' })).statusCode).toBe(403);
  });
});
