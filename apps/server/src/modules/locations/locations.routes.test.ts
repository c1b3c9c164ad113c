import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ROOM_PLAN_MAX_BYTES } from '@pagewatch/contracts/dictionaries';
import { bearer, signIn, testApp } from '../../test/test-app.ts';
import { addLocation, addRole } from '../../test/scope-fixture.ts';
import { openSocket, webSocketUrl } from '../../test/websocket.ts';

/**
 * Locations as LOCATION dictionary items (issue 7). The tree:
 *   DEFAULT ── A ── A1
 *          └── B
 * `editorA` holds PAGE_LOCATION.EDIT limited to A; `viewer` has no edit grant.
 */
const t = testApp({ signIn: false });
let root: string;
let editorA: string;
let viewer: string;
let locationDictionaryId: number;
const loc: Record<string, number> = {};

type Payload = Record<string, unknown>;
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string | null, payload?: Payload, lang = 'en') =>
  t.app.inject({ method, url, payload, headers: { ...(token ? bearer(token) : {}), 'accept-language': lang } });

async function userWith(login: string, roleId: number, locationId: number) {
  const res = await call('POST', '/api/users', root, {
    login, email: `${login}@example.com`, passwordHash: 'Passw0rd!', lastName: login, activeFlag: true,
    locations: [{ id: locationId }], grants: [{ id: roleId }],
  });
  expect(res.statusCode).toBe(200);
  return signIn(t.app, login, 'Passw0rd!');
}

const create = (token: string, body: Payload, lang = 'en') =>
  call('POST', '/api/dictionary-items', token, { dictionaryId: locationDictionaryId, ...body }, lang);

/** A multipart body with one file field. */
function multipart(data: Buffer, filename: string, type: string) {
  const boundary = `----pw${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, data, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const upload = (token: string, id: number, data: Buffer, filename = 'plan.png', type = 'image/png', lang = 'en') => {
  const m = multipart(data, filename, type);
  return t.app.inject({ method: 'POST', url: `/api/locations/${id}/plan`, payload: m.payload, headers: { ...bearer(token), ...m.headers, 'accept-language': lang } });
};

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);

beforeAll(async () => {
  const db = t.ctx.db;
  loc.DEFAULT = 1;
  loc.A = await addLocation(db, 'A');
  loc.A1 = await addLocation(db, 'A1', 'A');
  loc.B = await addLocation(db, 'B');
  root = await signIn(t.app);
  const editorRole = await addRole(db, 'LOC_EDITOR', ['PAGE_LOCATION.EDIT', 'MNU_USERS.READ']);
  const viewerRole = await addRole(db, 'LOC_VIEWER', []);
  editorA = await userWith('editor-a', editorRole, loc.A);
  viewer = await userWith('viewer', viewerRole, loc.A);
  locationDictionaryId = (await call('GET', '/api/dictionaries/by-code/LOCATION', viewer)).json().id;
});

describe('location items', () => {
  it('needs a session', async () => {
    expect((await call('GET', `/api/dictionary-items/${loc.A}`, null)).statusCode).toBe(401);
    expect((await call('PUT', `/api/dictionary-items/${loc.A}`, null, { name: 'x' })).statusCode).toBe(401);
    expect((await call('GET', `/api/locations/${loc.A}/plan`, null)).statusCode).toBe(401);
  });

  it('creates, reads, changes and deletes a location with its form fields', async () => {
    const res = await create(root, {
      code: 'HQ', name: 'Head office', parentId: loc.DEFAULT, description: 'Main building',
      location: { addressIndex: '101000', city: 'Moscow', street: 'Tverskaya', house: '1', floor: '3', room: '301', contactName: 'Ivan Petrov', contactPosition: 'Office manager', contactPhones: '+7 495 000-00-00' },
    });
    expect(res.statusCode).toBe(200);
    const hq = res.json();
    expect(hq).toMatchObject({ code: 'HQ', name: 'Head office', dictionaryCode: 'LOCATION', parent: { code: 'DEFAULT' }, description: 'Main building' });
    expect(hq.location).toMatchObject({ city: 'Moscow', room: '301', contactName: 'Ivan Petrov', planType: null });

    const changed = await call('PUT', `/api/dictionary-items/${hq.id}`, root, { name: 'Headquarters', location: { city: 'Kazan' } });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ name: 'Headquarters', code: 'HQ', location: { city: 'Kazan' } });

    const list = (await call('GET', '/api/user-locations/', root)).json();
    expect(list.pageRows.map((r: { code: string }) => r.code)).toContain('HQ');
    expect((await call('DELETE', `/api/dictionary-items/${hq.id}`, root)).statusCode).toBe(204);
    expect((await call('GET', `/api/dictionary-items/${hq.id}`, root)).statusCode).toBe(404);
  });

  it('validates code and name, in English and Russian', async () => {
    const long = await create(root, { code: 'X'.repeat(51), name: 'N'.repeat(251), parentId: loc.DEFAULT });
    expect(long.statusCode).toBe(400);
    expect(long.json().details).toEqual(expect.arrayContaining([
      { field: 'code', message: 'The value is too long' },
      { field: 'name', message: 'The value is too long' },
    ]));
    const ru = await create(root, { code: '', name: 'x', parentId: loc.DEFAULT }, 'ru');
    expect(ru.json().details).toEqual([{ field: 'code', message: 'Обязательное поле' }]);

    const taken = await create(root, { code: 'a', name: 'Duplicate of A', parentId: loc.DEFAULT });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().details).toEqual([{ field: 'code', message: 'A location with this code already exists' }]);
    const takenRu = await create(root, { code: 'A', name: 'Duplicate', parentId: loc.DEFAULT }, 'ru');
    expect(takenRu.json().details[0].message).toBe('Расположение с таким кодом уже существует');

    const noParent = await create(root, { code: 'ORPHAN', name: 'Orphan' });
    expect(noParent.statusCode).toBe(400);
    expect(noParent.json().details).toEqual([{ field: 'parentId', message: 'Choose the parent location' }]);
  });

  it('refuses a move that would make a cycle', async () => {
    const res = await call('PUT', `/api/dictionary-items/${loc.A}`, root, { parentId: loc.A1 });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('A location cannot be moved under itself or under one of its own locations');
    const self = await call('PUT', `/api/dictionary-items/${loc.A}`, root, { parentId: loc.A }, 'ru');
    expect(self.json().message).toBe('Расположение нельзя переместить внутрь самого себя или своих расположений');
  });

  it('moves a branch to a new parent and the tree follows', async () => {
    const c = (await create(root, { code: 'A1X', name: 'Under A1', parentId: loc.A1 })).json();
    expect((await call('PUT', `/api/dictionary-items/${loc.A1}`, root, { parentId: loc.B })).statusCode).toBe(200);
    const rows = (await call('GET', '/api/user-locations/', root)).json().pageRows as { id: number; parentId: number }[];
    expect(rows.find((r) => r.id === loc.A1)!.parentId).toBe(loc.B);
    expect(rows.find((r) => r.id === c.id)!.parentId).toBe(loc.A1);
    // editorA no longer sees A1 and its child, which left A.
    expect((await call('GET', `/api/dictionary-items/${c.id}`, editorA)).statusCode).toBe(403);
    await call('PUT', `/api/dictionary-items/${loc.A1}`, root, { parentId: loc.A });
    await call('DELETE', `/api/dictionary-items/${c.id}`, root);
  });

  it('keeps a caller inside their scope', async () => {
    // B is outside A: editorA can neither see it nor move anything under it.
    expect((await call('GET', `/api/dictionary-items/${loc.B}`, editorA)).statusCode).toBe(403);
    const under = await call('PUT', `/api/dictionary-items/${loc.A1}`, editorA, { parentId: loc.B });
    expect(under.statusCode).toBe(403);
    expect(under.json().message).toBe('The new parent location is outside your locations');
    // Only the default administrator makes top-level locations (issue 14).
    const top = await call('PUT', `/api/dictionary-items/${loc.A1}`, editorA, { parentId: null });
    expect(top.statusCode).toBe(403);
    expect(top.json().message).toBe('Only an administrator of the DEFAULT location can make a top-level location');
    const create1 = await create(editorA, { code: 'BX', name: 'Under B', parentId: loc.B });
    expect(create1.statusCode).toBe(403);
    // Inside A all is allowed.
    const inA = await create(editorA, { code: 'A2', name: 'A two', parentId: loc.A });
    expect(inA.statusCode).toBe(200);
    expect((await call('PUT', `/api/dictionary-items/${inA.json().id}`, editorA, { parentId: loc.A1 })).statusCode).toBe(200);
    expect((await call('DELETE', `/api/dictionary-items/${inA.json().id}`, editorA)).statusCode).toBe(204);
  });

  it('needs PAGE_LOCATION.EDIT to change, not to read', async () => {
    expect((await call('GET', `/api/dictionary-items/${loc.A1}`, viewer)).statusCode).toBe(200);
    expect((await call('GET', '/api/user-locations/', viewer)).json().pageRows.map((r: { code: string }) => r.code).sort()).toEqual(['A', 'A1']);
    expect((await call('PUT', `/api/dictionary-items/${loc.A1}`, viewer, { name: 'x' })).statusCode).toBe(403);
    expect((await create(viewer, { code: 'V1', name: 'x', parentId: loc.A })).statusCode).toBe(403);
    expect((await call('DELETE', `/api/dictionary-items/${loc.A1}`, viewer)).statusCode).toBe(403);
  });

  it('protects the DEFAULT location', async () => {
    const recode = await call('PUT', `/api/dictionary-items/${loc.DEFAULT}`, root, { code: 'ROOT' });
    expect(recode.statusCode).toBe(422);
    expect(recode.json().details).toEqual([{ field: 'code', message: 'The code of the DEFAULT location cannot be changed' }]);
    const rename = await call('PUT', `/api/dictionary-items/${loc.DEFAULT}`, root, { code: 'DEFAULT', name: 'Company' });
    expect(rename.statusCode).toBe(200);
    const del = await call('DELETE', `/api/dictionary-items/${loc.DEFAULT}`, root, undefined, 'ru');
    expect(del.statusCode).toBe(409);
    expect(del.json().message).toBe('Расположение DEFAULT нельзя удалить');
  });

  it('refuses to delete a location that still has something, saying what', async () => {
    const del = await call('DELETE', `/api/dictionary-items/${loc.A}`, root);
    expect(del.statusCode).toBe(409);
    // A has a child location (A1) and two users (editor-a, viewer).
    expect(del.json().message).toMatch(/^The location cannot be deleted: it still has 1 child location\(s\), 2 user\(s\)/);
    // Agents (and their devices and networks) hold a location too.
    const b2 = (await create(root, { code: 'B2', name: 'B two', parentId: loc.B })).json();
    const agent = await call('POST', '/api/agents', root, { name: 'Agent at B2', location: { id: b2.id } });
    expect(agent.statusCode).toBe(200);
    const withAgent = await call('DELETE', `/api/dictionary-items/${b2.id}`, root);
    expect(withAgent.statusCode).toBe(409);
    expect(withAgent.json().message).toBe('The location cannot be deleted: it still has 1 agent(s)');
    expect((await call('DELETE', `/api/agents/${agent.json().id}`, root)).statusCode).toBe(204);
    expect((await call('DELETE', `/api/dictionary-items/${b2.id}`, root)).statusCode).toBe(204);
    const ru = await call('DELETE', `/api/dictionary-items/${loc.A}`, root, undefined, 'ru');
    expect(ru.json().message).toMatch(/^Расположение нельзя удалить: в нём ещё есть дочерние расположения: 1, пользователи: 2/);
  });

  it('announces every change on the dictionary topic', async () => {
    const { ws, messages } = await openSocket(`${await webSocketUrl(t.app)}?access_token=${viewer}`);
    ws.send(JSON.stringify({ command: 'subscribe-dic-events' }));
    await expect.poll(() => messages.length).toBe(1);
    await call('PUT', `/api/dictionary-items/${loc.A1}`, root, { name: 'A one' });
    await expect.poll(() => messages).toContainEqual({ type: 'DICTIONARY_CHANGED', dictionary: 'LOCATION' });
    const printer = (await call('GET', '/api/dictionary-items/by-code/PRINTER_TYPE', root)).json().pageRows[0];
    await call('PUT', `/api/dictionary-items/${printer.id}`, root, { name: 'Printer (laser)' });
    await expect.poll(() => messages).toContainEqual({ type: 'DICTIONARY_CHANGED', dictionary: 'PRINTER_TYPE' });
    ws.close(1000);
    // And the change is in the event log.
    const logs = await t.ctx.db.execute<{ message_code: string }>(
      sql`SELECT message_code FROM event_logs WHERE message_code LIKE 'location.%' OR message_code LIKE 'dictionary.%'`,
    );
    expect(logs.rows.map((r) => r.message_code)).toEqual(expect.arrayContaining(['location.created', 'location.moved', 'location.updated', 'location.deleted', 'dictionary.itemUpdated']));
  });
});

describe('room plan', () => {
  it('stores a PNG and serves it back', async () => {
    const res = await upload(editorA, loc.A1, PNG);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ planType: 'image/png', placements: [] });
    const img = await call('GET', `/api/locations/${loc.A1}/plan/image`, viewer);
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.rawPayload.equals(PNG)).toBe(true);
    expect((await call('GET', `/api/dictionary-items/${loc.A1}`, viewer)).json().location.planType).toBe('image/png');
  });

  it('refuses files over 10 MB with the over-size message', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(ROOM_PLAN_MAX_BYTES, 0)]);
    const res = await upload(editorA, loc.A1, big);
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('The file is larger than 10 MB');
    const ru = await upload(editorA, loc.A1, big, 'plan.png', 'image/png', 'ru');
    expect(ru.json().message).toBe('Файл больше 10 МБ');
  });

  it('refuses other file types with 415', async () => {
    const res = await upload(editorA, loc.A1, Buffer.from('%PDF-1.7 not an image'), 'plan.png', 'image/png');
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toBe('Upload a PNG, JPEG or SVG image');
    const gif = await upload(editorA, loc.A1, Buffer.from('GIF89a....'), 'a.gif', 'image/gif', 'ru');
    expect(gif.json().message).toBe('Загрузите изображение PNG, JPEG или SVG');
  });

  it('needs PAGE_LOCATION.EDIT and the scope to upload', async () => {
    expect((await upload(viewer, loc.A1, PNG)).statusCode).toBe(403);
    expect((await upload(editorA, loc.B, PNG)).statusCode).toBe(403);
  });

  it('sanitises an SVG and serves it with a strict CSP', async () => {
    const svg = `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>
      <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="50" onload="alert(1)">
        <script>alert(2)</script>
        <rect width="100" height="50" fill="url(#g)" onclick="alert(3)"/>
        <image href="https://evil.example/x.png" width="10" height="10"/>
        <use xlink:href="https://evil.example/s.svg#a"/>
        <a href="javascript:alert(4)"><text>link</text></a>
        <foreignObject><div xmlns="http://www.w3.org/1999/xhtml">html</div></foreignObject>
        <style>@import url(https://evil.example/x.css); rect { fill: red }</style>
        <text x="5" y="20" style="fill: url(https://evil.example/p)">Room &amp; 301 &x;</text>
      </svg>`;
    const res = await upload(editorA, loc.A1, Buffer.from(svg), 'plan.svg', 'image/svg+xml');
    expect(res.statusCode).toBe(200);
    expect(res.json().planType).toBe('image/svg+xml');
    const img = await call('GET', `/api/locations/${loc.A1}/plan/image`, viewer);
    expect(img.headers['content-type']).toBe('image/svg+xml');
    expect(img.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'");
    const body = img.body;
    expect(body).toContain('<rect width="100" height="50" fill="url(#g)"/>');
    expect(body).toContain('Room &amp; 301');
    for (const bad of ['script', 'onload', 'onclick', 'evil.example', 'javascript:', 'foreignObject', 'ENTITY', '@import', 'alert']) {
      expect(body).not.toContain(bad);
    }
  });

  it('saves placements only for the location\'s devices', async () => {
    // No device belongs to A1, so any placement is refused.
    const res = await call('PUT', `/api/locations/${loc.A1}/plan/placements`, editorA, { placements: [{ deviceId: 999999, x: 0.5, y: 0.5 }] });
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0].message).toBe('Device 999999 is not in this location');
    const out = await call('PUT', `/api/locations/${loc.A1}/plan/placements`, editorA, { placements: [{ deviceId: 1, x: 1.5, y: 0.5 }] });
    expect(out.statusCode).toBe(400);
    const none = await call('PUT', `/api/locations/${loc.A1}/plan/placements`, editorA, { placements: [] });
    expect(none.statusCode).toBe(200);
  });

  it('removes the plan', async () => {
    expect((await call('DELETE', `/api/locations/${loc.A1}/plan`, editorA)).statusCode).toBe(204);
    expect((await call('GET', `/api/locations/${loc.A1}/plan/image`, viewer)).statusCode).toBe(404);
  });
});
