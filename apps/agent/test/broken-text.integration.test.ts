import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { AgentReading } from '@pagewatch/contracts/agent-api';
import { describeSimWorld } from './helpers/sim-world.ts';
import { printerDeviceLines } from './helpers/varbinds.ts';

/**
 * Issue 39, finding 1: a printer whose values end in an emoji that the agent's limits cut in
 * two (a 1,024-character sysDescr, a 4,096-character walk value), among ordinary printers. The
 * real server and the agent over HTTP: before, the walk's half surrogate pair made the server
 * answer the batch 500 and the agent retried it for ever, the printers behind it never stored.
 * And what an older agent still sends (half an emoji, a NUL): stored repaired, with a note.
 */
const COUNT = 3;
const hex = (text: string): string => Buffer.from(text, 'utf8').toString('hex');
const BROKEN = [
  `1.3.6.1.2.1.1.1.0|4x|${hex(`${'D'.repeat(1023)}😀`)}`,
  // An enterprise no profile knows: the agent walks the device.
  '1.3.6.1.2.1.1.2.0|6|1.3.6.1.4.1.99999.1',
  `1.3.6.1.2.1.1.4.0|4x|${hex(`${'x'.repeat(4095)}😀`)}`,
  '1.3.6.1.2.1.1.5.0|4|emoji-host',
  ...printerDeviceLines({ descr: 'Emoji Printer' }),
  '1.3.6.1.2.1.43.5.1.1.17.1|4|EMOJI-1',
  '1.3.6.1.2.1.43.10.2.1.4.1.1|65|1234',
].join('\n');

describeSimWorld('broken characters: a printer whose values the limits cut inside an emoji', { name: 'Emoji agent', snmprec: BROKEN, count: COUNT, base: '127.0.67.1', seed: 9 }, (world) => {
  const query = <T>(text: string) => world().query<T>(text);

  it('cuts between characters: the printer, its walk and the printers behind it are stored', async () => {
    const { runner, spoolDir } = world();
    const run = await runner.runOnce();
    expect(run.readings).toBe(COUNT + 1);
    expect(await runner.flush(20_000)).toBe(true);
    const [device] = await query<{ id: number; sys_descr: string }>(`SELECT id, sys_descr FROM devices WHERE ip = '127.0.0.1'`);
    expect(device.sys_descr).toBe('D'.repeat(1023));
    const [walk] = await query<{ rows: [string, string, string][] }>(`SELECT rows FROM device_walks WHERE device_id = ${device.id}`);
    expect(walk.rows.find(([oid]) => oid === '1.3.6.1.2.1.1.4.0')?.[2]).toBe('x'.repeat(4095));
    const [{ n }] = await query<{ n: number }>(`SELECT count(*)::int AS n FROM devices WHERE last_run_id = '${run.runId}'`);
    expect(Number(n)).toBe(COUNT + 1);
    expect(existsSync(join(spoolDir, 'rejected'))).toBe(false);
  });

  it('stores what an older agent sends with half an emoji or a NUL repaired, says so, and the readings behind it', async () => {
    const [{ rows }] = await query<{ rows: [string, string, string][] }>(`SELECT rows FROM device_walks LIMIT 1`);
    const base = (await query<{ ip: string }>(`SELECT ip FROM devices WHERE ip <> '127.0.0.1' ORDER BY ip`)).map((d) => d.ip);
    // Readings as the runner built them, sent again as new ones: the first with broken text.
    const reading = (ip: string, serial: string): AgentReading => ({
      id: randomUUID(), runId: null, rangeId: null, ip, port: 161,
      reading: {
        schema: 'pagewatch/reading@1', readAt: new Date().toISOString(), profileId: null, modelsVersion: null, sysObjectID: '1.3.6.1.4.1.99999.1',
        sysDescr: 'Emoji Printer', vendor: null, model: 'Plain', serialNumber: serial, macAddress: null, firmware: 'v2', hostName: null, location: null,
        isPrinter: true, deviceType: 'PRINTER', colorType: null, paperFormat: null,
        status: { deviceStatus: 'running', printerStatus: 'idle', errors: [], errorStateHex: null },
        counters: { total: 1, markerTotal: null, vendorTotal: null, totalUnit: null, powerOn: null, mono: null, color: null, a3: null, a3Bw: null, a3Color: null, a4: null, a4Bw: null, a4Color: null, copies: null, scans: null, fax: null, duplex: null, derived: [], vendor: [], sources: {}, splitMismatch: null },
        supplies: [], trays: [], problems: [],
      },
    });
    const broken = { ...reading('127.0.0.1', 'EMOJI-1'), walk: [...rows.slice(0, 3), ['1.3.6.1.2.1.1.4.0', 'OctetString', `${'x'.repeat(4095)}\ud83d`] as [string, string, string]] };
    broken.reading = { ...broken.reading, hostName: 'emoji-😀-host\ud83d', firmware: 'v\u00002' };
    const behind = base.map((ip, i) => reading(ip, `BEHIND-${i}`));
    const result = await world().transport.sendReadings({ batchId: randomUUID(), readings: [broken, ...behind] });
    expect(result).toMatchObject({ stored: 1 + behind.length, rejected: [], repaired: [{ index: 0, id: broken.id, fields: ['firmware', 'hostName', 'walk.3'] }] });
    const [device] = await query<{ host_name: string; firmware: string; problems: string[] }>(`SELECT host_name, firmware, problems FROM devices WHERE ip = '127.0.0.1'`);
    expect(device).toMatchObject({ host_name: 'emoji-😀-host\uFFFD', firmware: 'v 2' });
    expect(device.problems).toContain('hostName: broken characters replaced by the server');
    expect((await query<{ serial_number: string }>(`SELECT serial_number FROM devices WHERE serial_number LIKE 'BEHIND-%'`)).length).toBe(behind.length);
  });
});
