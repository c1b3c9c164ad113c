import { beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { bearer, signedInAs, testApp } from '../../test/test-app.ts';
import { expectFieldErrors } from '../../test/bad-input.ts';
import { agentReading, batch, createAgent, post } from '../ingest/ingest.fixtures.ts';

const t = testApp();
let agentId: number;
let agentToken: string;

beforeAll(async () => {
  ({ agentId, token: agentToken } = await createAgent(t.app, t.admin, { name: 'Queues agent' }));
});

const base = () => ({ type: 'IPP', agent: { id: agentId }, host: 'cups.example.local', port: 631, url: '/printers/office', username: 'reader', password: 'p4ss-secret' });
const create = (payload: object, lang = 'en') =>
  t.app.inject({ method: 'POST', url: '/api/queues', headers: { ...bearer(t.admin), 'accept-language': lang }, payload });
const as = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

describe('queues API', () => {
  it('needs a session and MNU_QUEUES on every route', async () => {
    const id = (await create(base())).json().id;
    const routes: [string, string][] = [
      ['GET', '/api/queues'], ['GET', '/api/queues-v'], ['GET', '/api/queues/page'], ['GET', '/api/queues-v/page'],
      ['GET', '/api/queue-jobs/page'], ['GET', `/api/queues/${id}`], ['POST', '/api/queues'], ['PUT', `/api/queues/${id}`],
      ['POST', `/api/queues/${id}/reset`], ['DELETE', `/api/queues/${id}`],
    ];
    const loc = (await as(t.admin, 'GET', '/api/user-locations/')).json().pageRows[0].id;
    const op = await signedInAs(t, { login: 'op-queues', role: 'OPERATOR', locationIds: [loc] });
    for (const [method, url] of routes) {
      expect((await t.app.inject({ method: method as 'GET', url })).statusCode, `${method} ${url}`).toBe(401);
      expect((await as(agentToken, method as 'GET', url, method === 'GET' || method === 'DELETE' ? undefined : base())).statusCode, `${method} ${url}`).toBe(401);
      expect((await as(op, method as 'GET', url, method === 'GET' || method === 'DELETE' ? undefined : base())).statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await t.app.inject({ method: 'POST', url: '/api/agent/queue-jobs', payload: {} })).statusCode).toBe(401);
    expect((await as(t.admin, 'POST', '/api/agent/queue-jobs', {})).statusCode).toBe(401);
  });

  it('creates, reads, lists, changes and deletes; never returns the password', async () => {
    const res = await create(base());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).not.toContain('p4ss-secret');
    expect(res.json()).toMatchObject({ type: 'IPP', host: 'cups.example.local', port: 631, url: '/printers/office', passwordSet: true, tokenSet: false, status: 'NEW', agent: { id: agentId }, jobCount: 0 });
    const id = res.json().id;
    for (const url of ['/api/queues', '/api/queues-v', '/api/queues/page', '/api/queues-v/page']) {
      const list = await as(t.admin, 'GET', `${url}?page=100,1&sort=id,DESC&filter-json=${encodeURIComponent(JSON.stringify(['host', 'contains', 'example']))}`);
      expect(list.statusCode, list.body).toBe(200);
      expect(list.body).not.toContain('p4ss-secret');
      expect(list.json().pageRows[0]).toMatchObject({ id, agentName: 'Queues agent', status: 'NEW', jobCount: 0 });
    }
    const one = await as(t.admin, 'GET', `/api/queues/${id}`);
    expect(one.body).not.toContain('p4ss-secret');
    // The password kept when not sent (the address unchanged), dropped when cleared; the agent gets it.
    const put = await as(t.admin, 'PUT', `/api/queues/${id}`, { ...base(), password: null, username: 'reader2' });
    expect(put.json()).toMatchObject({ username: 'reader2', passwordSet: true });
    const cfg = (await as(agentToken, 'GET', '/api/agent/config')).json();
    expect(cfg.queues.find((q: { id: number }) => q.id === id)).toMatchObject({ host: 'cups.example.local', port: 631, username: 'reader2', password: 'p4ss-secret', sinceJobId: null });
    const cleared = await as(t.admin, 'PUT', `/api/queues/${id}`, { ...base(), password: null, clearPassword: true, port: 8631 });
    expect(cleared.json().passwordSet).toBe(false);
    expect((await as(t.admin, 'DELETE', `/api/queues/${id}`)).statusCode).toBe(204);
    expect((await as(t.admin, 'GET', `/api/queues/${id}`)).statusCode).toBe(404);
    expect((await as(t.admin, 'PUT', `/api/queues/${id}`, base())).statusCode).toBe(404);
    expect((await as(t.admin, 'POST', `/api/queues/${id}/reset`)).statusCode).toBe(404);
    expect((await as(t.admin, 'GET', '/api/queues/abc')).statusCode).toBe(400);
  });

  it('sends the stored password to no other address: a new host, port, path or agent needs it again or cleared (422), and nothing changes until then', async () => {
    const id = (await create(base())).json().id;
    const other = await createAgent(t.app, t.admin, { name: 'Queues agent 2' });
    const stored = async () => (await as(agentToken, 'GET', '/api/agent/config')).json().queues.find((q: { id: number }) => q.id === id);
    const before = await stored();
    expect(before).toMatchObject({ host: 'cups.example.local', port: 631, url: '/printers/office', password: 'p4ss-secret' });
    for (const move of [{ host: 'collector.example.net' }, { port: 8631 }, { url: '/printers/other' }, { url: null }, { agent: { id: other.agentId } }]) {
      const res = await as(t.admin, 'PUT', `/api/queues/${id}`, { ...base(), password: null, ...move });
      expect(res.statusCode, `${JSON.stringify(move)}: ${res.body}`).toBe(422);
      expect(res.json()).toMatchObject({ code: 'SECRET_REQUIRED', details: [{ field: 'password', message: expect.stringMatching(/address .* changed: enter the password again/) }] });
      expect(await stored(), JSON.stringify(move)).toEqual(before);
    }
    expect((await as(other.token, 'GET', '/api/agent/config')).json().queues).toEqual([]);
    const ru = await t.app.inject({ method: 'PUT', url: `/api/queues/${id}`, headers: { ...bearer(t.admin), 'accept-language': 'ru' }, payload: { ...base(), password: null, host: 'collector.example.net' } });
    expect(ru.json().details[0]).toEqual({ field: 'password', message: expect.stringMatching(/^Адрес или агент очереди изменён: введите пароль заново/) });
    // With the password given again, or cleared, the queue moves.
    const again = await as(t.admin, 'PUT', `/api/queues/${id}`, { ...base(), host: 'cups2.example.local', password: 'n3w-secret' });
    expect(again.json()).toMatchObject({ host: 'cups2.example.local', passwordSet: true });
    expect(await stored()).toMatchObject({ host: 'cups2.example.local', password: 'n3w-secret' });
    const cleared = await as(t.admin, 'PUT', `/api/queues/${id}`, { ...base(), password: null, clearPassword: true, host: 'collector.example.net' });
    expect(cleared.json()).toMatchObject({ host: 'collector.example.net', passwordSet: false });
    expect(await stored()).toMatchObject({ host: 'collector.example.net', password: null });
  });

  it('refuses bad hosts, ports, URLs, agents and values past their limits, naming the field', async () => {
    const cases: [object, string, RegExp][] = [
      [{ ...base(), host: 'http://cups' }, 'host', /host name/],
      [{ ...base(), host: 'cups:631' }, 'host', /host name/],
      [{ ...base(), host: '' }, 'host', /Required/],
      [{ ...base(), host: 'a'.repeat(300) }, 'host', /./],
      [{ ...base(), port: 0 }, 'port', /65535/],
      [{ ...base(), port: 65536 }, 'port', /65535/],
      [{ ...base(), port: '631' }, 'port', /65535/],
      [{ ...base(), url: 'printers/office' }, 'url', /starting with \//],
      [{ ...base(), url: '/printers/my office' }, 'url', /starting with \//],
      [{ ...base(), url: `/${'x'.repeat(1001)}` }, 'url', /./],
      [{ ...base(), username: 'u\u0000' }, 'username', /./],
      [{ ...base(), password: 'x'.repeat(256) }, 'password', /./],
      [{ ...base(), type: 'LPD' }, 'type', /./],
      [{ ...base(), agent: null }, 'agent', /./],
      [{ ...base(), agent: { id: 999999 } }, 'agent', /./],
    ];
    await expectFieldErrors((payload) => create(payload), cases);
    const ru = await create({ ...base(), port: 0 }, 'ru');
    expect(ru.json().details[0].message).toMatch(/Порт/);
    const badList = await as(t.admin, 'GET', `/api/queue-jobs/page?filter-json=${encodeURIComponent(JSON.stringify(['nope', '=', 1]))}`);
    expect(badList.statusCode).toBe(400);
    expect((await as(t.admin, 'GET', '/api/queues?sort=password,ASC')).statusCode).toBe(400);
  });
});

describe('jobs from the agent', () => {
  const job = (id: number, over: object = {}) => ({
    externalJobId: id, name: `doc-${id}.pdf`, username: 'alice', clientMachine: 'pc-17', createdAt: '2026-03-02T09:00:00Z',
    completedAt: '2026-03-02T09:01:00Z', printedPageCount: 3, colorPageCount: null, sizeKb: 120, paperSize: 'iso_a4_210x297mm', duplex: false, ...over,
  });
  /** A run of one agent: each queue's read (its printer, error and jobs). */
  const sendRun = (queues: object[], token = agentToken, envelope: object = {}) =>
    t.app.inject({ method: 'POST', url: '/api/agent/queue-jobs', headers: bearer(token), payload: { batchId: randomUUID(), readAt: new Date().toISOString(), queues, ...envelope } });
  const read = (queueId: number, jobs: unknown[], over: object = {}) => ({ queueId, printerUri: 'socket://10.77.0.5:9100', error: null, jobs, ...over });
  const send = (queueId: number, jobs: unknown[], over: object = {}, token = agentToken) => sendRun([read(queueId, jobs, over)], token);
  const userDays = async (deviceId: number) =>
    (await t.ctx.db.execute(sql`SELECT fact_date::text AS day, username, printed_page_count AS pages FROM dm_device_user_days WHERE device_id = ${deviceId} ORDER BY fact_date, username`)).rows;

  it('keeps each job once, matches the device by its address and adds pages per user and day', async () => {
    expect((await post(t.app, agentToken, batch([agentReading('10.77.0.5', { serial: 'QJ-1', total: 100 })]))).statusCode).toBe(200);
    const deviceId = Number((await t.ctx.db.execute(sql`SELECT id FROM devices WHERE serial_number = 'QJ-1'`)).rows[0]!.id);
    const queueId = (await create(base())).json().id;
    const first = await send(queueId, [job(1), job(2, { username: 'bob', printedPageCount: 5 }), job(3, { completedAt: '2026-03-03T10:00:00Z' })]);
    expect(first.json()).toEqual({ stored: 3, duplicates: 0, rejected: [] });
    // Again, as a spool or a reset would: nothing doubles.
    const again = await send(queueId, [job(1), job(2, { username: 'bob', printedPageCount: 5 }), job(4, { printedPageCount: 1 })]);
    expect(again.json()).toEqual({ stored: 1, duplicates: 2, rejected: [] });
    expect(await userDays(deviceId)).toEqual([
      { day: '2026-03-02', username: 'alice', pages: 4 },
      { day: '2026-03-02', username: 'bob', pages: 5 },
      { day: '2026-03-03', username: 'alice', pages: 3 },
    ]);
    const q = (await as(t.admin, 'GET', `/api/queues/${queueId}`)).json();
    expect(q).toMatchObject({ status: 'OK', lastJobId: 4, printerAddress: '10.77.0.5', device: { id: deviceId, serialNumber: 'QJ-1' }, jobCount: 4 });
    const jobs = await as(t.admin, 'GET', `/api/queue-jobs/page?page=20,1&filter-json=${encodeURIComponent(JSON.stringify(['queueId', '=', queueId]))}&sort=externalJobId,ASC`);
    expect(jobs.statusCode, jobs.body).toBe(200);
    expect(jobs.json().totalRows).toBe(4);
    expect(jobs.json().pageRows[1]).toMatchObject({ externalJobId: 2, deviceSerialNumber: 'QJ-1', name: 'doc-2.pdf', username: 'bob', clientMachine: 'pc-17', printedPageCount: 5, sizeKb: 120, paperSize: 'iso_a4_210x297mm', duplex: false, completedAt: '2026-03-02T09:01:00.000Z' });
    // The device card's user activity reads the same days.
    const activity = await as(t.admin, 'GET', `/api/dm-device-user-days/page?page=20,1&filter-json=${encodeURIComponent(JSON.stringify(['deviceId', '=', deviceId]))}`);
    expect(activity.statusCode, activity.body).toBe(200);
    expect(activity.json().totalRows).toBe(3);

    // A reset: the agent is told to read from the start, and what it sends again is not doubled.
    const reset = await as(t.admin, 'POST', `/api/queues/${queueId}/reset`);
    expect(reset.json()).toMatchObject({ status: 'NEW', lastJobId: null, jobCount: 4 });
    const cfg = (await as(agentToken, 'GET', '/api/agent/config')).json();
    expect(cfg.queues.find((x: { id: number }) => x.id === queueId)).toMatchObject({ sinceJobId: null, stateVersion: 1 });
    expect((await send(queueId, [job(1), job(2), job(3), job(4)], { stateVersion: 1 })).json()).toMatchObject({ stored: 0, duplicates: 4 });
    expect((await userDays(deviceId)).map((d) => d.pages)).toEqual([4, 5, 3]);
    // A batch read before the reset does not move the cursor.
    await as(t.admin, 'POST', `/api/queues/${queueId}/reset`);
    await send(queueId, [job(9)], { stateVersion: 1 });
    expect((await as(t.admin, 'GET', `/api/queues/${queueId}`)).json().lastJobId).toBeNull();
  });

  it('refuses impossible jobs one by one and keeps the rest', async () => {
    const queueId = (await create(base())).json().id;
    const res = await send(queueId, [
      job(1),
      job(2, { completedAt: '2099-01-01T00:00:00Z' }),
      job(3, { createdAt: '2026-03-02T10:00:00Z' }),
      job(4, { printedPageCount: -1 }),
      job(5, { username: 'x'.repeat(256) }),
      { nonsense: true },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().stored).toBe(1);
    expect(res.json().rejected.map((r: { index: number; status: number }) => [r.index, r.status])).toEqual([[1, 422], [2, 422], [3, 400], [4, 400], [5, 400]]);
    expect(res.json().rejected[1].message).toMatch(/impossible/);
  });

  it('shows a queue that cannot be read, logs it once, and refuses a queue not of this agent with 404, keeping the rest', async () => {
    const queueId = (await create(base())).json().id;
    for (let i = 0; i < 2; i++) expect((await send(queueId, [], { error: 'connect ECONNREFUSED 127.0.0.1:631', printerUri: null })).statusCode).toBe(200);
    expect((await as(t.admin, 'GET', `/api/queues/${queueId}`)).json()).toMatchObject({ status: 'ERROR', statusMessage: 'connect ECONNREFUSED 127.0.0.1:631' });
    const logs = await t.ctx.db.execute(sql`SELECT log_level FROM event_logs WHERE object_class = 'QueueDao' AND object_id = ${queueId} AND message_code = 'queue.readFailed'`);
    expect(logs.rows).toHaveLength(1);
    await send(queueId, [job(1)]);
    expect((await as(t.admin, 'GET', `/api/queues/${queueId}`)).json().status).toBe('OK');

    const other = await createAgent(t.app, t.admin, { name: 'Other agent' });
    const otherQueue = (await create({ ...base(), agent: { id: other.agentId } })).json().id;
    const foreign = await send(queueId, [job(2)], {}, other.token);
    expect(foreign.statusCode, foreign.body).toBe(200);
    expect(foreign.json()).toMatchObject({ stored: 0, rejected: [{ queueId, index: null, status: 404, message: 'Not found' }] });
    // One run: a missing queue and another agent's are refused, the agent's own queue is stored.
    const mixed = await sendRun([read(999999, [job(2)]), read(queueId, [job(2)]), read(otherQueue, [job(2)])]);
    expect(mixed.json()).toMatchObject({ stored: 1, duplicates: 0 });
    expect(mixed.json().rejected.map((r: { queueId: number; status: number }) => [r.queueId, r.status])).toEqual([[999999, 404], [otherQueue, 404]]);
    expect((await as(t.admin, 'GET', `/api/queues/${otherQueue}`)).json()).toMatchObject({ status: 'NEW', jobCount: 0 });
  });

  it('refuses a bad envelope, a queue twice, and a run past the limits, naming what', async () => {
    const queueId = (await create(base())).json().id;
    expect((await sendRun([read(queueId, [])], agentToken, { batchId: 'x' })).statusCode).toBe(400);
    expect((await sendRun([])).statusCode).toBe(400);
    const twice = await sendRun([read(queueId, [job(1)]), read(queueId, [job(2)])]);
    expect(twice.statusCode).toBe(400);
    expect(twice.json().details).toEqual([{ field: 'queues.1.queueId', message: 'A queue appears once in a request' }]);
    expect((await send(queueId, Array.from({ length: 1001 }, (_, i) => job(i + 1)))).statusCode).toBe(413);
    expect((await sendRun(Array.from({ length: 501 }, (_, i) => read(i + 1, [])))).statusCode).toBe(413);
    const over = await sendRun(Array.from({ length: 11 }, (_, q) => read(q + 1, Array.from({ length: 1000 }, (_, i) => job(i + 1)))));
    expect(over.statusCode).toBe(413);
    expect(over.json().message).toMatch(/500 queues, 1000 jobs of a queue and 10000 jobs in all/);
    expect((await as(t.admin, 'GET', `/api/queues/${queueId}`)).json().jobCount).toBe(0);
  });

  it('stores a run of many queues at once: each queue its jobs, device, user days and cursor', async () => {
    const ips = ['10.78.0.1', '10.78.0.2', '10.78.0.3'];
    expect((await post(t.app, agentToken, batch(ips.map((ip, i) => agentReading(ip, { serial: `RUN-${i}`, total: 10 }))))).statusCode).toBe(200);
    const queues: number[] = [];
    for (let i = 0; i < 3; i++) queues.push((await create({ ...base(), url: `/printers/run${i}` })).json().id);
    const res = await sendRun(queues.map((id, i) => read(id, [job(1, { username: `u${i}` }), job(2, { username: `u${i}` }), ...(i === 1 ? [job(3, { printedPageCount: -1 })] : [])], { printerUri: `ipp://${ips[i]}/ipp/print` })));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ stored: 6, duplicates: 0, rejected: [{ queueId: queues[1], index: 2, status: 400 }] });
    for (const [i, id] of queues.entries()) {
      const q = (await as(t.admin, 'GET', `/api/queues/${id}`)).json();
      expect(q).toMatchObject({ status: 'OK', lastJobId: 2, printerAddress: ips[i], device: { serialNumber: `RUN-${i}` }, jobCount: 2 });
      expect(await userDays(q.device.id)).toEqual([{ day: '2026-03-02', username: `u${i}`, pages: 6 }]);
    }
  });

  it('adds up runs of two agents printing to one device at once, nothing lost or locked', async () => {
    expect((await post(t.app, agentToken, batch([agentReading('10.82.0.1', { serial: 'BOTH-1', total: 10 })]))).statusCode).toBe(200);
    const second = await createAgent(t.app, t.admin, { name: 'Second print server agent' });
    const mine = (await create({ ...base(), url: '/printers/both' })).json().id;
    const theirs = (await create({ ...base(), agent: { id: second.agentId }, url: '/printers/both' })).json().id;
    // Each run: 30 users, in another order for each agent, all on one day of one device.
    const users = Array.from({ length: 30 }, (_, i) => `user${i}`);
    const runOf = (queueId: number, token: string, n: number, order: string[]) =>
      sendRun([read(queueId, order.map((u, i) => job(n * 100 + i + 1, { username: u, printedPageCount: 1 })), { printerUri: 'socket://10.82.0.1:9100' })], token);
    const results = await Promise.all(Array.from({ length: 8 }, (_, n) => [
      runOf(mine, agentToken, n, users), runOf(theirs, second.token, n, [...users].reverse()),
    ]).flat());
    for (const r of results) expect(r.statusCode, r.body).toBe(200);
    const deviceId = (await as(t.admin, 'GET', `/api/queues/${mine}`)).json().device.id;
    const days = await userDays(deviceId);
    expect(days).toHaveLength(30);
    expect(days.map((d) => d.pages)).toEqual(users.map(() => 16));
  });

  it('adds up the colour pages the jobs told into the user days; unknown stays null, not 0', async () => {
    expect((await post(t.app, agentToken, batch([agentReading('10.80.0.1', { serial: 'COL-1', total: 10 })]))).statusCode).toBe(200);
    const queueId = (await create({ ...base(), url: '/printers/colour' })).json().id;
    const uri = { printerUri: 'socket://10.80.0.1:9100' };
    await send(queueId, [job(1, { colorPageCount: 2 }), job(2, { colorPageCount: null }), job(3, { username: 'bob' }), job(4, { username: 'carol', colorPageCount: 0 })], uri);
    const colours = async (deviceId: number) =>
      (await t.ctx.db.execute(sql`SELECT username, printed_page_count AS pages, color_page_count AS colour FROM dm_device_user_days WHERE device_id = ${deviceId} ORDER BY username`)).rows;
    const deviceId = (await as(t.admin, 'GET', `/api/queues/${queueId}`)).json().device.id;
    expect(await colours(deviceId)).toEqual([{ username: 'alice', pages: 6, colour: 2 }, { username: 'bob', pages: 3, colour: null }, { username: 'carol', pages: 3, colour: 0 }]);
    // A later run: known colour pages join an unknown day, and add to a known one.
    await send(queueId, [job(5, { colorPageCount: 3 }), job(6, { username: 'bob', colorPageCount: 1 }), job(7, { username: 'carol' })], uri);
    expect(await colours(deviceId)).toEqual([{ username: 'alice', pages: 9, colour: 5 }, { username: 'bob', pages: 6, colour: 1 }, { username: 'carol', pages: 6, colour: 0 }]);
    const grid = await as(t.admin, 'GET', `/api/dm-device-user-days/page?page=20,1&sort=username,ASC&filter-json=${encodeURIComponent(JSON.stringify(['deviceId', '=', deviceId]))}`);
    expect(grid.json().pageRows.map((r: { colorPageCount: number | null }) => r.colorPageCount)).toEqual([5, 1, 0]);
    const jobs = await as(t.admin, 'GET', `/api/queue-jobs/page?page=20,1&sort=externalJobId,ASC&filter-json=${encodeURIComponent(JSON.stringify(['queueId', '=', queueId]))}`);
    expect(jobs.json().pageRows.map((r: { colorPageCount: number | null }) => r.colorPageCount)).toEqual([2, null, null, 0, 3, 1, null]);
  });

  it('matches a printer named by host name to the device of that host name, with or without its domain', async () => {
    const ips = ['10.79.0.1', '10.79.0.2', '10.79.0.3', '10.79.0.4'];
    expect((await post(t.app, agentToken, batch(ips.map((ip, i) => agentReading(ip, { serial: `HN-${i}`, total: 10 }))))).statusCode).toBe(200);
    const names = ['MyPrinter.corp.example', 'printer-name', 'twin', 'twin.corp.example'];
    for (const [i, name] of names.entries()) await t.ctx.db.execute(sql`UPDATE devices SET host_name = ${name} WHERE serial_number = ${`HN-${i}`}`);
    const cases: [string, string | null][] = [
      ['socket://myprinter:9100', 'HN-0'],
      ['ipp://MYPRINTER.corp.example./ipp/print', 'HN-0'],
      ['ipp://printer-name.local/ipp/print', 'HN-1'],
      ['socket://printer-name.corp.example:9100', 'HN-1'],
      ['socket://twin:9100', null],
      ['socket://myprinter.other.example:9100', null],
      ['usb://MyPrinter/LaserJet', null],
    ];
    const matchOf = async (printerUri: string, printerIp?: string) => {
      const id = (await create(base())).json().id;
      expect((await send(id, [job(1)], { printerUri, ...(printerIp ? { printerIp } : {}) })).statusCode).toBe(200);
      return (await as(t.admin, 'GET', `/api/queues/${id}`)).json().device?.serialNumber ?? null;
    };
    for (const [uri, serial] of cases) expect(await matchOf(uri), uri).toBe(serial);
    // The address the agent resolved the name to comes first: it is where the print server sends the jobs.
    expect(await matchOf('socket://office-printer:9100', '10.79.0.3')).toBe('HN-2');
    expect(await matchOf('socket://myprinter:9100', '10.79.0.4')).toBe('HN-3');
    expect(await matchOf('socket://myprinter:9100', '10.79.9.9')).toBe('HN-0');
    expect((await send((await create(base())).json().id, [], { printerUri: 'socket://myprinter:9100', printerIp: 'myprinter' })).statusCode).toBe(400);
  });
});
