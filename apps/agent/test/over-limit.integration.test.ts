import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { describeSimWorld } from './helpers/sim-world.ts';
import { printerDeviceLines } from './helpers/varbinds.ts';

/**
 * Issue 14, finding 7: one printer with values past every limit (a 2,000-character serial, host
 * name and location, a NUL byte, a supply capacity and a supply index of 2^31 or more) among
 * ordinary ones. The real server and the agent over HTTP: the printer is stored, fitted and
 * noted, the others too, and later readings keep flowing (before, the server answered 500 and
 * the agent retried that batch for ever).
 */
const COUNT = 3;
const hex = (text: string): string => Buffer.from(text, 'latin1').toString('hex');
const LONG_SERIAL = `EVIL${'9'.repeat(1996)}`;
const EVIL = [
  '1.3.6.1.2.1.1.1.0|4|KYOCERA Document Solutions Printing System',
  '1.3.6.1.2.1.1.2.0|6|1.3.6.1.4.1.1347.41',
  `1.3.6.1.2.1.1.5.0|4x|${hex(`host\u0000${'h'.repeat(2000)}`)}`,
  `1.3.6.1.2.1.1.6.0|4|${'L'.repeat(2000)}`,
  ...printerDeviceLines({ descr: 'ECOSYS M2540dn' }),
  `1.3.6.1.2.1.43.5.1.1.17.1|4|${LONG_SERIAL}`,
  '1.3.6.1.2.1.43.10.2.1.4.1.1|65|123456',
  '1.3.6.1.2.1.43.11.1.1.5.1.1|2|3',
  '1.3.6.1.2.1.43.11.1.1.5.1.3000000000|2|3',
  '1.3.6.1.2.1.43.11.1.1.6.1.1|4|TK-1170',
  '1.3.6.1.2.1.43.11.1.1.6.1.3000000000|4|TK-9999',
  '1.3.6.1.2.1.43.11.1.1.8.1.1|66|3000000000',
  '1.3.6.1.2.1.43.11.1.1.8.1.3000000000|2|100',
  '1.3.6.1.2.1.43.11.1.1.9.1.1|2|-3',
  '1.3.6.1.2.1.43.11.1.1.9.1.3000000000|2|50',
  '1.3.6.1.4.1.1347.43.5.1.1.1.1|4|ECOSYS M2540dn',
  `1.3.6.1.4.1.1347.43.5.1.1.28.1|4|${LONG_SERIAL}`,
].join('\n');

describeSimWorld('values past the limits: agent, server, a printer that sends too much', { name: 'Limits agent', snmprec: EVIL, count: COUNT, base: '127.0.66.1', seed: 7 }, (world) => {
  const query = <T>(text: string) => world().query<T>(text);

  it('stores the printer fitted to the limits with a note, the other printers too, and later readings keep flowing', async () => {
    const { runner, fleet, spoolDir } = world();
    const first = await runner.runOnce();
    expect(first.readings).toBe(COUNT + 1);
    expect(await runner.flush(20_000)).toBe(true);

    type Row = { id: number; serial_number: string; host_name: string; snmp_location: string; problems: string[] };
    const [evil] = await query<Row>(`SELECT id, serial_number, host_name, snmp_location, problems FROM devices WHERE ip = '127.0.0.1'`);
    expect(evil.serial_number).toBe(LONG_SERIAL.slice(0, 100));
    expect(evil.host_name).toHaveLength(255);
    expect(evil.host_name.startsWith('host h')).toBe(true);
    expect(evil.snmp_location).toHaveLength(500);
    for (const note of ['serialNumber: cut', 'hostName: cut', 'location: cut', 'supplies.0.maxCapacity: dropped', 'supplies.1.index: dropped']) {
      expect(evil.problems.some((p) => p.startsWith(note)), `${note} in ${JSON.stringify(evil.problems)}`).toBe(true);
    }
    const supplies = await query<{ supply_index: number; max_capacity: number | null }>(`SELECT supply_index, max_capacity FROM consumables WHERE device_id = ${evil.id}`);
    expect(supplies).toEqual([{ supply_index: 1, max_capacity: null }]);
    const others = await query<{ serial_number: string }>(`SELECT serial_number FROM devices WHERE ip <> '127.0.0.1' ORDER BY serial_number`);
    expect(others.map((d) => d.serial_number)).toEqual(fleet.list().map((p) => p.serial).sort());

    // Later readings flow: a second poll is stored for every device, nothing was set aside.
    await fleet.advance(3_600_000);
    const second = await runner.runOnce();
    expect(await runner.flush(20_000)).toBe(true);
    const [{ n }] = await query<{ n: number }>(`SELECT count(*)::int AS n FROM devices WHERE last_run_id = '${second.runId}'`);
    expect(Number(n)).toBe(COUNT + 1);
    expect(existsSync(join(spoolDir, 'rejected'))).toBe(false);
  });
});
