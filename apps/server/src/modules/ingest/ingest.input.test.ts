import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bearer, testApp } from '../../test/test-app.ts';
import { ingestTables } from '../../test/ingest-tables.ts';
import { randomUUID } from 'node:crypto';
import { agentReading, batch, createAgent, post } from './ingest.fixtures.ts';

const t = testApp();

const { rows, count, clean } = ingestTables(() => t.ctx.db);

describe('bad agent input', () => {
  let token: string;
  beforeAll(async () => {
    await clean();
    ({ token } = await createAgent(t.app, t.admin, { name: 'Bad input' }));
  });

  const good = () => agentReading('127.0.11.1', { serial: 'OK1', total: 10, black: 50 });
  const nothingStored = async () => {
    expect(await count('devices')).toBe(0);
    expect(await count('ingested_readings')).toBe(0);
    expect(await count('dm_device_days')).toBe(0);
  };

  it('refuses a wrong or missing token with 401', async () => {
    expect((await post(t.app, 'pwa_wrong', batch([good()]))).statusCode).toBe(401);
    const res = await t.app.inject({ method: 'POST', url: '/api/agent/readings', payload: batch([good()]) });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBeTruthy();
    await nothingStored();
  });

  type Rejection = { index: number; id: string | null; status: number; code: string; message: string; details?: { field: string; message: string }[] };
  /** A batch the server takes as a whole (200) with these readings refused one by one. */
  const refused = async (readings: unknown[]) => {
    const res = await post(t.app, token, { batchId: randomUUID(), readings });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { stored: number; duplicates: number; rejected: Rejection[] };
  };

  it('refuses malformed batches with 400, and a malformed reading on its own, naming the field', async () => {
    // Changed with issue 14: a bad reading no longer refuses its whole batch.
    const noId = { ...good(), id: 'not-a-uuid' };
    const res = await refused([noId]);
    expect(res).toMatchObject({ stored: 0, rejected: [{ index: 0, id: 'not-a-uuid', status: 400, code: 'VALIDATION' }] });
    expect(res.rejected[0].message).toMatch(/readings\.0\.id/);
    const notJson = await t.app.inject({ method: 'POST', url: '/api/agent/readings', headers: { ...bearer(token), 'content-type': 'application/json' }, payload: '{"batchId": ' });
    expect(notJson.statusCode).toBe(400);
    expect((await post(t.app, token, { batchId: randomUUID(), readings: [] })).statusCode).toBe(400);
    expect((await post(t.app, token, { batchId: 'nope', readings: [good()] })).statusCode).toBe(400);
    expect((await post(t.app, token, { batchId: randomUUID(), readings: 'all of them' })).statusCode).toBe(400);
    await nothingStored();
  });

  it('refuses impossible values, each reading on its own: negative counters, percent 250, dates in the future', async () => {
    const negative = good();
    negative.reading.counters.total = -5;
    const percent = good();
    percent.reading.supplies[0].percent = 250;
    const future = good();
    future.reading.readAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const huge = good();
    huge.reading.counters.total = 1e15;
    const res = await refused([negative, percent, future, huge]);
    expect(res.stored).toBe(0);
    expect(res.rejected.map((r) => [r.index, r.id, r.status, r.details?.[0]?.field])).toEqual([
      [0, negative.id, 400, 'readings.0.reading.counters.total'],
      [1, percent.id, 400, 'readings.1.reading.supplies.0.percent'],
      [2, future.id, 422, 'readings.2.reading.readAt'],
      [3, huge.id, 400, 'readings.3.reading.counters.total'],
    ]);
    await nothingStored();
  });

  it('refuses oversized batches: more than 500 readings, more than 20 MB', async () => {
    const many = Array.from({ length: 501 }, () => good());
    let res = await post(t.app, token, batch(many));
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toMatch(/500/);
    const big = good();
    big.walk = Array.from({ length: 400 }, (_, i) => [`1.3.6.1.4.1.1.${i}`, 'OctetString', 'x'.repeat(60_000)] as [string, string, string]);
    res = await post(t.app, token, batch([big]));
    expect(res.statusCode).toBe(413);
    await nothingStored();
  });

  it('stores the good readings of a batch and names each bad one with its field (issue 14, finding 7)', async () => {
    const bad = (change: (r: ReturnType<typeof good>) => void) => {
      const r = good();
      change(r);
      return r;
    };
    const readings = [
      agentReading('127.0.11.2', { serial: 'GOOD1', total: 1 }),
      bad((r) => void (r.reading.serialNumber = 'S'.repeat(2000))),
      bad((r) => void (r.reading.hostName = 'h'.repeat(256))),
      bad((r) => void (r.reading.location = 'L'.repeat(501))),
      bad((r) => void (r.reading.model = 'M'.repeat(251))),
      bad((r) => void (r.reading.supplies[0].maxCapacity = 2 ** 31)),
      bad((r) => void (r.reading.supplies[0].index = 2 ** 31)),
      agentReading('127.0.11.3', { serial: 'GOOD2', total: 2 }),
    ];
    const res = await refused(readings);
    expect(res).toMatchObject({ stored: 2, duplicates: 0 });
    expect(res.rejected.map((r) => [r.index, r.id, r.status, r.details?.map((d) => d.field)])).toEqual([
      [1, readings[1].id, 400, ['readings.1.reading.serialNumber']],
      [2, readings[2].id, 400, ['readings.2.reading.hostName']],
      [3, readings[3].id, 400, ['readings.3.reading.location']],
      [4, readings[4].id, 400, ['readings.4.reading.model']],
      [5, readings[5].id, 400, ['readings.5.reading.supplies.0.maxCapacity']],
      [6, readings[6].id, 400, ['readings.6.reading.supplies.0.index']],
    ]);
    expect((await rows<{ serial_number: string }>(sql`SELECT serial_number FROM devices ORDER BY serial_number`)).map((d) => d.serial_number)).toEqual(['GOOD1', 'GOOD2']);
    // The refused readings were not taken: sent again (fixed), they are stored.
    readings[1].reading.serialNumber = 'S'.repeat(100);
    expect(await refused([readings[1]])).toMatchObject({ stored: 1, rejected: [] });
    await clean();
  });

  it('stores a reading with broken text repaired and says so, and the readings behind it (issue 39)', async () => {
    // A value cut inside an emoji (half a surrogate pair), a NUL from an OctetString, in the
    // reading and in its walk: before, PostgreSQL refused the walk and the batch was a 500.
    const broken = agentReading('127.0.11.4', { serial: 'CUT\ud83d', total: 5, black: 40 });
    broken.reading.firmware = 'v1\u0000';
    broken.reading.supplies[0].description = '\udc00toner';
    broken.walk = [['1.3.6.1.2.1.1.1.0', 'OctetString', `${'x'.repeat(10)}\ud83d`], ['1.3.6.1.2.1.1.5.0', 'OctetString', 'a\u0000b'], ['1.3.6.1.2.1.1.6.0', 'OctetString', 'fine 😀']];
    const behind = Array.from({ length: 21 }, (_, i) => agentReading(`127.0.12.${i + 1}`, { serial: `BEHIND${i}`, total: i }));
    ({ token } = await createAgent(t.app, t.admin, { name: 'Broken text' }));
    const res = await refused([broken, ...behind]);
    expect(res).toMatchObject({ stored: 22, duplicates: 0, rejected: [] });
    expect((res as { repaired?: unknown }).repaired).toEqual([
      { index: 0, id: broken.id, fields: ['serialNumber', 'firmware', 'supplies.0.description', 'walk.0', 'walk.1'] },
    ]);
    const [device] = await rows<{ id: number; serial_number: string; firmware: string; problems: string[] }>(sql`SELECT id, serial_number, firmware, problems FROM devices WHERE ip = '127.0.11.4'`);
    expect(device).toMatchObject({ serial_number: 'CUT\uFFFD', firmware: 'v1' });
    expect(device.problems).toContain('serialNumber: broken characters replaced by the server');
    const [walk] = await rows<{ rows: unknown }>(sql`SELECT rows FROM device_walks WHERE device_id = ${device.id}`);
    expect(JSON.stringify(walk?.rows)).toContain('xxxxxxxxxx\uFFFD');
    expect(await count('devices')).toBe(22);
    await clean();
  });

  it('keeps agent and user tokens apart', async () => {
    const users = await t.app.inject({ url: '/api/users', headers: bearer(token) });
    expect(users.statusCode).toBe(401);
    const agents = await t.app.inject({ url: '/api/agents', headers: bearer(token) });
    expect(agents.statusCode).toBe(401);
    const asUser = await post(t.app, t.admin, batch([good()]));
    expect(asUser.statusCode).toBe(401);
    const config = await t.app.inject({ url: '/api/agent/config', headers: bearer(t.admin) });
    expect(config.statusCode).toBe(401);
    await nothingStored();
  });
});
