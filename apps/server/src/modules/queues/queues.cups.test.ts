import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { bearer, createTestApp, signIn } from '../../test/test-app.ts';
import { cupsAvailable, startCups, type Cups } from '../../test/cups-server.ts';
import { agentReading, batch, createAgent, post } from '../ingest/ingest.fixtures.ts';
import { directTransport, type DirectTransport } from '../agents/builtin-agent.ts';

/**
 * Issue 20 against a real CUPS (Debian's cups, started on 127.0.0.1 by the test): jobs
 * submitted with `lp -U <user> -n <copies>` reach the queue's jobs and the device's user days
 * through the agent's runner, its spool and the agent API; a reset reads again without
 * doubling; CUPS stopped and started again, and the server away, lose no job.
 */
// Loaded by name as main.ts does: the agent's typings are its own workspace's.
type Runner = { runOnce(): Promise<unknown>; flush(ms?: number): Promise<boolean>; stop(): Promise<void>; pending(): number };
type RunnerModule = { createAgentRunner(o: Record<string, unknown>): Runner };
type TransportModule = { TransportError: new (kind: string, message: string, status: number | null) => Error };
const RUNNER: string = '@pagewatch/agent/runner';
const TRANSPORT: string = '@pagewatch/agent/transport';

// CUPS is the part under test here: it runs against one database, PostgreSQL where the suite has
// it (CI) and PGlite otherwise; the queues' storage runs on both in the other queue tests.
const onItsDatabase = process.env.PAGEWATCH_TEST_DB === (process.env.DATABASE_URL ? 'postgres' : 'pglite');
describe.skipIf(!cupsAvailable || !onItsDatabase)('print queues read from a real CUPS, on one database (needs Debian\'s cups: apt-get install cups cups-client cups-bsd)', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let cups: Cups;
  let sink: Server;
  let admin: string;
  let agentId: number;
  let deviceId: number;
  const queue: Record<string, number> = {};
  const spoolDir = mkdtempSync(join(tmpdir(), 'pagewatch-queues-spool-'));
  let serverAway = false;
  const agentLog: string[] = [];

  /** One run of the agent (a fresh runner on the same spool, so it reads the config again), then its spool sent. */
  async function agentRun(): Promise<number> {
    const { createAgentRunner } = (await import(RUNNER)) as RunnerModule;
    const { TransportError } = (await import(TRANSPORT)) as TransportModule;
    const direct = directTransport(t.ctx, agentId, (kind, message, status) => new TransportError(kind, message, status));
    const transport: DirectTransport = {
      ...direct,
      sendQueueJobs: (b) => (serverAway ? Promise.reject(new TransportError('unavailable', 'the server is away', null)) : direct.sendQueueJobs(b)),
    };
    const runner = createAgentRunner({ transport, spoolDir, log: (level: string, m: string) => agentLog.push(`${level}: ${m}`), sealAfterMs: 20, retryMinMs: 50, retryMaxMs: 100, stopFlushMs: 500 });
    await runner.runOnce();
    await runner.flush(serverAway ? 300 : 10_000);
    await runner.stop();
    if (runner.pending()) agentLog.push(`spool: ${readdirSync(spoolDir).map((f) => `${f}: ${statSync(join(spoolDir, f)).isFile() ? readFileSync(join(spoolDir, f), 'utf8').slice(0, 300) : 'dir'}`).join('\n')}`);
    return runner.pending();
  }
  const api = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await t.app.inject({ method, url, headers: bearer(admin), ...(payload ? { payload } : {}) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const jobsOf = async (id: number) =>
    (await api('GET', `/api/queue-jobs/page?page=100,1&sort=externalJobId,ASC&filter-json=${encodeURIComponent(JSON.stringify(['queueId', '=', id]))}`)).pageRows;
  const userDays = async () =>
    (await api('GET', `/api/dm-device-user-days/page?page=100,1&sort=username,ASC&filter-json=${encodeURIComponent(JSON.stringify(['deviceId', '=', deviceId]))}`)).pageRows
      .map((r: { username: string; printedPageCount: number; factDate: string }) => [r.username, r.printedPageCount, r.factDate]);
  const colourDays = async () =>
    (await api('GET', `/api/dm-device-user-days/page?page=100,1&sort=username,ASC&filter-json=${encodeURIComponent(JSON.stringify(['deviceId', '=', deviceId]))}`)).pageRows
      .map((r: { username: string; colorPageCount: number | null }) => [r.username, r.colorPageCount]);
  const today = () => new Date().toISOString().slice(0, 10);

  beforeAll(async () => {
    cups = await startCups();
    // The printer behind the office queue: a socket that takes the job and discards it.
    sink = createServer((s) => s.resume().on('error', () => undefined));
    await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
    await cups.addPrinter('office', `socket://127.0.0.1:${(sink.address() as { port: number }).port}`);
    await cups.addPrinter('lab', 'file:///dev/null');
    t = await createTestApp();
    admin = await signIn(t.app);
    const agent = await createAgent(t.app, admin, { name: 'CUPS agent' });
    agentId = agent.agentId;
    // The office printer is a known device at the address its CUPS queue prints to.
    expect((await post(t.app, agent.token, batch([agentReading('127.0.0.1', { serial: 'CUPS-OFFICE', total: 10 })]))).statusCode).toBe(200);
    deviceId = Number((await t.ctx.db.execute(sql`SELECT id FROM devices WHERE serial_number = 'CUPS-OFFICE'`)).rows[0]!.id);
    for (const name of ['office', 'lab', 'missing']) {
      queue[name] = (await api('POST', '/api/queues', { type: 'IPP', agent: { id: agentId }, host: '127.0.0.1', port: cups.port, url: `/printers/${name}` })).id;
    }
  }, 60_000);
  afterAll(async () => {
    await cups?.close();
    await new Promise((r) => (sink ? sink.close(r) : r(null)));
    await t?.close();
    rmSync(spoolDir, { recursive: true, force: true });
  });

  it('reads completed jobs into the queue\'s jobs and the device\'s user days', async () => {
    await cups.print('office', 'alice', 2, 'quarterly report');
    await cups.print('office', 'bob', 3);
    await cups.print('office', 'bob', 1, 'grey memo', ['print-color-mode=monochrome']);
    await cups.print('lab', 'carol', 1);
    await cups.idle();
    expect(await agentRun(), agentLog.join('\n')).toBe(0);

    const office = await jobsOf(queue.office!);
    expect(office).toHaveLength(3);
    // CUPS tells no colour impressions: unknown (null), but 0 for a job printed in monochrome mode.
    expect(office[0]).toMatchObject({ name: 'quarterly report', username: 'alice', clientMachine: 'localhost', printedPageCount: 2, colorPageCount: null, deviceId, deviceSerialNumber: 'CUPS-OFFICE' });
    expect(office[0].sizeKb).toBeGreaterThanOrEqual(0);
    expect(Date.parse(office[0].completedAt)).toBeGreaterThan(Date.now() - 600_000);
    expect(office[1]).toMatchObject({ username: 'bob', printedPageCount: 3, colorPageCount: null });
    expect(office[2]).toMatchObject({ name: 'grey memo', username: 'bob', printedPageCount: 1, colorPageCount: 0 });
    expect(await userDays()).toEqual([['alice', 2, today()], ['bob', 4, today()]]);
    expect(await colourDays()).toEqual([['alice', null], ['bob', 0]]);
    // The lab printer prints to a file: no device to match, the jobs are kept all the same.
    expect(await jobsOf(queue.lab!)).toEqual([expect.objectContaining({ username: 'carol', deviceId: null })]);

    expect(await api('GET', `/api/queues/${queue.office}`)).toMatchObject({ status: 'OK', printerAddress: '127.0.0.1', device: { id: deviceId }, jobCount: 3 });
    const missing = await api('GET', `/api/queues/${queue.missing}`);
    expect(missing).toMatchObject({ status: 'ERROR', jobCount: 0 });
    expect(missing.statusMessage).toMatch(/no printer at \/printers\/missing/);
  }, 60_000);

  it('matches a printer named by host name to the device of that host name, or of the address the agent resolves it to', async () => {
    // CUPS keeps the device-uri as given; the agent sends it with the address it resolves the name to, the server matches either.
    await cups.addPrinter('named', 'ipp://Printer-Name.local/ipp/print');
    await cups.addPrinter('short', 'socket://myprinter:9100');
    // A name no device has (localhost): the agent resolves it, and its address is the office printer's.
    await cups.addPrinter('local', 'socket://localhost:9100');
    const ids: Record<string, number> = {};
    for (const [serial, ip, hostName] of [['CUPS-NAMED', '10.91.0.1', 'printer-name'], ['CUPS-SHORT', '10.91.0.2', 'MyPrinter.corp.example']] as const) {
      await t.ctx.db.execute(sql`INSERT INTO devices (location_id, ip, serial_number, model_code, host_name) SELECT location_id, ${ip}, ${serial}, 'Generic', ${hostName} FROM agents WHERE id = ${agentId}`);
      ids[serial] = Number((await t.ctx.db.execute(sql`SELECT id FROM devices WHERE serial_number = ${serial}`)).rows[0]!.id);
    }
    const named = (await api('POST', '/api/queues', { type: 'IPP', agent: { id: agentId }, host: '127.0.0.1', port: cups.port, url: '/printers/named' })).id;
    const short = (await api('POST', '/api/queues', { type: 'IPP', agent: { id: agentId }, host: '127.0.0.1', port: cups.port, url: '/printers/short' })).id;
    const local = (await api('POST', '/api/queues', { type: 'IPP', agent: { id: agentId }, host: '127.0.0.1', port: cups.port, url: '/printers/local' })).id;
    expect(await agentRun(), agentLog.join('\n')).toBe(0);
    expect(await api('GET', `/api/queues/${named}`)).toMatchObject({ status: 'OK', printerAddress: 'printer-name.local', device: { id: ids['CUPS-NAMED'] } });
    expect(await api('GET', `/api/queues/${short}`)).toMatchObject({ status: 'OK', printerAddress: 'myprinter', device: { id: ids['CUPS-SHORT'] } });
    expect(await api('GET', `/api/queues/${local}`)).toMatchObject({ status: 'OK', printerAddress: 'localhost', device: { id: deviceId } });
    for (const id of [named, short, local]) expect((await t.app.inject({ method: 'DELETE', url: `/api/queues/${id}`, headers: bearer(admin) })).statusCode).toBe(204);
  }, 60_000);

  it('reads again after a reset without doubling', async () => {
    await api('POST', `/api/queues/${queue.office}/reset`);
    expect(await agentRun()).toBe(0);
    expect(await jobsOf(queue.office!)).toHaveLength(3);
    expect(await userDays()).toEqual([['alice', 2, today()], ['bob', 4, today()]]);
    expect((await api('GET', `/api/queues/${queue.office}`)).status).toBe('OK');
  }, 60_000);

  it('loses no job while CUPS is stopped and started again, or while the server is away', async () => {
    await cups.print('office', 'dave', 4);
    await cups.idle();
    await cups.stop();
    expect(await agentRun()).toBe(0);
    const down = await api('GET', `/api/queues/${queue.office}`);
    expect(down.status).toBe('ERROR');
    expect(down.statusMessage).toMatch(/cannot be reached/);
    await cups.start();
    // Read, but the server does not take it: the jobs wait in the agent's spool.
    serverAway = true;
    expect(await agentRun()).toBeGreaterThan(0);
    serverAway = false;
    await cups.print('office', 'erin', 1);
    await cups.idle();
    expect(await agentRun()).toBe(0);
    expect((await jobsOf(queue.office!)).map((j: { username: string }) => j.username)).toEqual(['alice', 'bob', 'bob', 'dave', 'erin']);
    expect(await userDays()).toEqual([['alice', 2, today()], ['bob', 4, today()], ['dave', 4, today()], ['erin', 1, today()]]);
    expect((await api('GET', `/api/queues/${queue.office}`)).status).toBe('OK');
    const logs = await t.ctx.db.execute(sql`SELECT message_code FROM event_logs WHERE object_class = 'QueueDao' AND object_id = ${queue.office!} AND message_code IN ('queue.readFailed', 'queue.readAgain') ORDER BY id`);
    expect(logs.rows.map((r) => r.message_code)).toEqual(['queue.readFailed', 'queue.readAgain']);
  }, 90_000);
});
