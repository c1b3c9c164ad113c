import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bearer } from '../../test/test-app.ts';
import { agentReading, batch, post } from '../ingest/ingest.fixtures.ts';
import { get, multipart, page, send, upload, useDevicesWorld, WALK, world, type DevicesWorld } from '../../test/devices-world.ts';

/** Walks of devices no profile knows, and the service uploads of serials (test/devices-world.ts). */
let t: DevicesWorld['t'];
let adminA: string;
let operatorA: string;
let agentA: DevicesWorld['agentA'];
const ids = world.ids;

useDevicesWorld();
beforeAll(() => void ({ t, adminA, operatorA, agentA } = world));

describe('walks', () => {
  it('asks for a fresh walk on the next contact', async () => {
    const res = await send('POST', `/api/dm-device-days/device/${ids.SA1}/update-walk`, undefined, adminA);
    expect(res.statusCode, res.body).toBe(200);
    expect((await get(`/api/devices/${ids.SA1}`)).json().walkRequestedAt).toBe(res.json().requestedAt);
    const agentId = Number(((await t.ctx.db.execute(sql`SELECT agent_id FROM devices WHERE id = ${ids.SA1}`)).rows[0] as { agent_id: number }).agent_id);
    expect(await t.ctx.devices.pendingWalks(agentId)).toEqual([{ deviceId: ids.SA1, ip: '127.0.20.9', port: 161 }]);
    expect((await send('POST', `/api/dm-device-days/device/${ids.SB1}/update-walk`, undefined, adminA)).statusCode).toBe(403);
    expect((await send('POST', `/api/dm-device-days/device/${ids.SA1}/update-walk`, undefined, operatorA)).statusCode).toBe(403);
  });

  it('downloads the unknown devices of the scope as .walk files in a zip', async () => {
    const res = await get('/api/devices/walks', adminA);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="unknown-devices-\d{4}-\d{2}-\d{2}\.zip"/);
    const dir = mkdtempSync(join(tmpdir(), 'pw-walks-'));
    try {
      writeFileSync(join(dir, 'w.zip'), res.rawPayload);
      execFileSync('unzip', ['-q', 'w.zip', '-d', 'out'], { cwd: dir });
      const files = readdirSync(join(dir, 'out'));
      expect(files).toEqual([`LaserJet-M404_UNK1_${ids.UNK1}.walk`]);
      expect(readFileSync(join(dir, 'out', files[0]), 'utf8')).toBe(
        [
          '.1.3.6.1.2.1.1.1.0 = STRING: "Mystery \\"Printer\\" 9000"',
          '.1.3.6.1.2.1.1.2.0 = OID: .1.3.6.1.4.1.99999.1',
          '.1.3.6.1.2.1.1.3.0 = Timeticks: (123456) 0:0:20:34.56',
          '.1.3.6.1.2.1.2.2.1.6.1 = Hex-STRING: 00 11 22 AA BB CC',
          '.1.3.6.1.2.1.43.10.2.1.4.1.1 = Counter32: 4242',
        ].join('\n') + '\n',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const all = await get('/api/devices/walks');
    expect(all.headers['x-walk-count']).toBe('2');
    const chosen = await get(`/api/devices/walks?ids=${ids.UNKB}`, adminA);
    expect(chosen.headers['x-walk-count']).toBe('0');
  });

  it('tells the agent on its next contact; a reading with a walk answers the request', async () => {
    await send('POST', `/api/dm-device-days/device/${ids.SA1}/update-walk`, undefined, adminA);
    const config = async () => (await get('/api/agent/config', agentA.token)).json();
    expect((await config()).walkRequests).toEqual([{ deviceId: ids.SA1, ip: '127.0.20.9', port: 161 }]);
    const walked = { ...agentReading('127.0.20.9', { serial: 'SA1', total: 1300, black: 79, cyan: 40 }, { rangeId: agentA.rangeId }), walk: WALK };
    expect((await post(t.app, agentA.token, batch([walked]))).statusCode).toBe(200);
    expect((await config()).walkRequests).toEqual([]);
  });
});

describe('service uploads', () => {
  const txt = (body: string) => multipart('serialNumbers', 'serials.txt', 'text/plain', body);

  it('enables maintenance for the listed serials and reports exactly what it did not find or read', async () => {
    await send('POST', '/api/devices/change-activity', { ids: [ids.SA1, ids.SA2], managedFlag: false }, adminA);
    const res = await upload('/api/service/set-active-status', txt('\uFEFFSA1\r\nsa2\nNOPE-404\n\nbad serial with spaces\n'), adminA);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ changed: 2, notFound: ['NOPE-404'], invalidLines: [5] });
    expect(body.message).toBe('Maintenance enabled for 2 of 2 device(s) found. Not found (1): NOPE-404. Lines that are not serial numbers (1): 5.');
    expect((await get(`/api/devices/${ids.SA2}`)).json().managedFlag).toBe(true);
  });

  it('disables only devices in the scope; a serial outside is not found', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/service/set-inactive-status', payload: txt('SA3\nSB1\n').payload, headers: { ...bearer(adminA), ...txt('').headers, 'accept-language': 'ru' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ changed: 1, notFound: ['SB1'], invalidLines: [] });
    expect(res.json().message).toContain('Не найдены (1): SB1.');
    expect((await get(`/api/devices/${ids.SB1}`)).json().managedFlag).toBe(true);
  });

  it('refuses other types, empty files and files over 1 MB with a clear error', async () => {
    const csv = await upload('/api/service/set-active-status', multipart('serialNumbers', 'serials.csv', 'text/csv', 'SA1\n'), adminA);
    expect(csv.statusCode).toBe(415);
    expect(csv.json().details).toEqual([{ field: 'serialNumbers', message: 'Only .txt files are accepted' }]);
    const png = await upload('/api/service/set-active-status', multipart('serialNumbers', 'x.txt', 'image/png', 'SA1'), adminA);
    expect(png.statusCode).toBe(415);
    const binary = await upload('/api/service/set-active-status', multipart('serialNumbers', 'x.txt', 'text/plain', Buffer.from([0xff, 0xfe, 0x00, 0x41])), adminA);
    expect(binary.statusCode).toBe(415);
    expect(binary.json().message).toBe('The file is not UTF-8 text');
    const empty = await upload('/api/service/set-active-status', txt(''), adminA);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().details[0]).toEqual({ field: 'serialNumbers', message: 'The file is empty' });
    const blank = await upload('/api/service/set-active-status', txt('\n \n'), adminA);
    expect(blank.statusCode).toBe(400);
    const big = await upload('/api/service/set-active-status', txt('SA1\n'.repeat(300_000)), adminA);
    expect(big.statusCode).toBe(413);
    expect(big.json().details).toEqual([{ field: 'serialNumbers', message: 'The file is larger than 1 MB' }]);
    const none = await send('POST', '/api/service/set-active-status', {}, adminA);
    expect(none.statusCode).toBe(400);
  });

  it('needs BTN_DEVICE_ACTIVITY.EXECUTE', async () => {
    expect((await upload('/api/service/set-active-status', txt('SA1\n'), operatorA)).statusCode).toBe(403);
    expect((await send('POST', '/api/service/reset-status', undefined, operatorA)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/api/service/reset-status' })).statusCode).toBe(401);
  });

  it('stops maintenance for every device of the scope only', async () => {
    const res = await send('POST', '/api/service/reset-status', undefined, adminA);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().changed).toBe(3);
    expect(res.json().message).toBe('Maintenance stopped for 3 device(s).');
    const rows = (await page('/api/devices/page?page=100,1')).pageRows;
    expect(rows.filter((r) => r.managedFlag).map((r) => r.serialNumber).sort()).toEqual(['SB1', 'UNKB']);
  });
});
