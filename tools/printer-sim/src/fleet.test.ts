import { SOURCED_COUNTERS } from '@pagewatch/contracts/reading';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDevice } from '@pagewatch/agent/read-device';
import { createDefaultRegistry } from '@pagewatch/agent/models-pack';
import { SnmpClient } from '@pagewatch/agent/snmp-client';
import { MODELS } from './catalogue.ts';
import { Fleet, addressAt, startFleet } from './fleet.ts';
import { startControlServer } from './control-server.ts';

const DAY = 86_400_000;
const randomPort = (): number => 20_000 + Math.floor(Math.random() * 40_000);

/** Every printer's MIB as bytes, to compare fleets. */
function snapshot(fleet: Fleet): string[] {
  return fleet.printers.map((_, i) => Buffer.concat(fleet.view(i).entries.map((e) => e.encoded)).toString('base64'));
}

describe('simulated fleet: determinism', () => {
  it('gives the same printers and the same history for the same seed and elapsed time', async () => {
    const a = new Fleet({ count: 40, seed: 7, speed: 0 });
    const b = new Fleet({ count: 40, seed: 7, speed: 0 });
    expect(snapshot(a)).toEqual(snapshot(b));
    // Stepping in different increments reaches the same state.
    await a.advance(10 * DAY);
    for (let i = 0; i < 10; i++) await b.advance(DAY);
    expect(snapshot(a)).toEqual(snapshot(b));
    expect(a.list()).toEqual(b.list());
  });

  it('gives another fleet for another seed', () => {
    const a = new Fleet({ count: 40, seed: 7, speed: 0 });
    const c = new Fleet({ count: 40, seed: 8, speed: 0 });
    expect(a.list().map((p) => p.serial)).not.toEqual(c.list().map((p) => p.serial));
  });

  it('moves on with time: pages, draining supplies, replacements, jams, outages and IP changes', async () => {
    const fleet = new Fleet({ count: 60, seed: 3, speed: 0 });
    const before = fleet.list();
    const moves = new Set<number>();
    let offlineSeen = 0;
    let jamsSeen = 0;
    for (let day = 0; day < 120; day++) {
      await fleet.advance(DAY);
      for (const p of fleet.list()) {
        if (p.ip !== addressAt('127.0.1.1', p.index)) moves.add(p.index);
        if (!p.online) offlineSeen++;
        if (p.jammed) jamsSeen++;
      }
    }
    const after = fleet.list();
    for (let i = 0; i < after.length; i++) expect(after[i]!.totalPages).toBeGreaterThan(before[i]!.totalPages);
    expect(after.flatMap((p) => p.supplies).some((s) => s.replacements > 0)).toBe(true);
    expect(moves.size).toBeGreaterThan(0);
    expect(offlineSeen + jamsSeen).toBeGreaterThan(0);
  });

  it('keeps still without random events (what the integration tests need)', async () => {
    const fleet = new Fleet({ count: 30, seed: 3, speed: 0, randomEvents: false });
    await fleet.advance(60 * DAY);
    for (const p of fleet.list()) {
      expect(p.online).toBe(true);
      expect(p.jammed).toBe(false);
      expect(p.ip).toBe(addressAt('127.0.1.1', p.index));
      expect(p.supplies.every((s) => s.replacements === 0)).toBe(true);
    }
  });
});

describe('simulated fleet over SNMP', () => {
  const port = randomPort();
  const base = '127.0.61.1';
  const registry = createDefaultRegistry();
  let fleet: Fleet;

  beforeAll(async () => {
    // One printer of every model in the catalogue.
    fleet = await startFleet({ count: MODELS.length, port, base, seed: 11, speed: 0, randomEvents: false, models: MODELS.map((m) => m.model) });
  });
  afterAll(async () => {
    await fleet?.stop();
  });

  it('is read by the probe as the vendor and model it simulates', async () => {
    for (const p of fleet.list()) {
      const spec = MODELS[p.index]!;
      const reading = await readDevice({ host: p.ip, port, timeoutMs: 1000, retries: 1 }, registry);
      expect({ vendor: reading.vendor, model: reading.model }).toEqual({ vendor: spec.vendorName, model: spec.model });
      expect(reading.serialNumber).toBe(p.serial);
      expect(reading.macAddress).toBe(p.mac);
      expect(reading.isPrinter).toBe(true);
      expect(reading.deviceType).toBe(spec.type);
      expect(reading.colorType).toBe(spec.color ? 'COLOR' : 'MONO');
      expect(reading.paperFormat).toBe(spec.a3 ? 'A3' : 'A4');
      expect(reading.counters.total).toBe(p.totalPages);
      expect(reading.supplies).toHaveLength(spec.supplies.length);
      expect(reading.problems).toEqual([]);
    }
  });

  it('publishes the split page counters the way each vendor does, and the probe reads them', async () => {
    for (const p of fleet.list()) {
      const c = (await readDevice({ host: p.ip, port, timeoutMs: 1000, retries: 1 }, registry)).counters;
      const s = p.counters;
      const what = `${p.vendor} ${p.model}`;
      // Every device has a black-and-white count: a monochrome one's is its total, marked derived.
      expect({ total: c.total, mono: c.mono }, what).toEqual({ total: p.totalPages, mono: s.printMono + s.copyMono });
      expect(c.splitMismatch, what).toBeNull();
      // Every counter read says where it came from.
      for (const k of SOURCED_COUNTERS) if (c[k] !== null) expect(c.sources[k], `${what}: the source of ${k}`).toBeTruthy();
      if (p.vendor === 'Acme') continue; // a maker the models pack does not know: the total alone
      if (p.color) expect(c.color, what).toBe(s.printColor + s.copyColor);
      if (p.type === 'MFP') expect({ copies: c.copies, scans: c.scans }, what).toEqual({ copies: s.copyMono + s.copyColor, scans: s.scans });
      else expect({ copies: c.copies, scans: c.scans }, `${what}: a printer has no copies or scans, not zero`).toEqual({ copies: null, scans: null });
      if (!p.a3) expect({ a3: c.a3, a3Bw: c.a3Bw }, `${what}: an A4 device counts no A3 pages`).toEqual({ a3: null, a3Bw: null });
      // Where the vendor counts A3 pages, they are the simulator's, and the sizes add up to the total.
      if (c.a3 !== null) expect({ a3: c.a3, a4: c.a4 }, what).toEqual({ a3: s.a3Mono + s.a3Color, a4: p.totalPages - s.a3Mono - s.a3Color });
      if (c.a3Bw !== null) expect({ a3Bw: c.a3Bw, a4Bw: c.a4Bw }, what).toEqual({ a3Bw: s.a3Mono, a4Bw: s.printMono + s.copyMono - s.a3Mono });
      if (p.a3 && p.color && c.a3Color !== null) expect(c.a3Color, what).toBe(s.a3Color);
      // Ricoh's and Sharp's counter tables have no paper sizes (their MIBs give none).
      if (p.a3 && !['Ricoh', 'Sharp'].includes(p.vendor)) expect(c.a3, `${what} has A3 pages`).not.toBeNull();
    }
  });

  it('answers SNMPv1 GET and GETNEXT too', async () => {
    const p = fleet.info(0);
    const reading = await readDevice({ host: p.ip, port, version: '1', timeoutMs: 1000 }, registry);
    expect(reading.serialNumber).toBe(p.serial);
  });

  it('answers SNMPv3 at noAuthNoPriv for its user, and reports an unknown user', async () => {
    const p = fleet.info(1);
    const reading = await readDevice({ host: p.ip, port, version: '3', v3: { user: 'simuser' }, timeoutMs: 1000 }, registry);
    expect(reading.serialNumber).toBe(p.serial);
    const stranger = new SnmpClient({ host: p.ip, port, version: '3', v3: { user: 'stranger' }, timeoutMs: 500, retries: 0 });
    await expect(stranger.get(['1.3.6.1.2.1.1.1.0'])).rejects.toBeTruthy();
    stranger.close();
  });

  it('ignores a wrong community, as a real agent does', async () => {
    const client = new SnmpClient({ host: fleet.info(0).ip, port, community: 'wrong', timeoutMs: 300, retries: 0 });
    await expect(client.get(['1.3.6.1.2.1.1.1.0'])).rejects.toMatchObject({ kind: 'timeout' });
    client.close();
  });

  it('takes forced events through the control API: supply level, new cartridge, jam, offline, new IP', async () => {
    const control = await startControlServer(fleet);
    const post = async (path: string, body: unknown = {}): Promise<Response> =>
      fetch(`${control.url}${path}`, { method: 'POST', body: JSON.stringify(body) });
    try {
      const target = fleet.info(0);
      expect((await post('/printers/0/supplies/1', { percent: 4 })).status).toBe(200);
      let reading = await readDevice({ host: target.ip, port, timeoutMs: 1000 }, registry);
      expect(reading.supplies[0]!.percent).toBeLessThanOrEqual(5);
      expect(reading.status.errors).toContain('lowToner');

      await post('/printers/0/supplies/1/replace');
      await post('/printers/0/jam');
      reading = await readDevice({ host: target.ip, port, timeoutMs: 1000 }, registry);
      expect(reading.supplies[0]!.percent).toBe(100);
      expect(reading.status.errors).toContain('jammed');
      expect(reading.status.deviceStatus).toBe('down');
      await post('/printers/0/clear');

      const moved = (await (await post('/printers/0/ip', { ip: '127.0.61.200' })).json()) as { ip: string };
      expect(moved.ip).toBe('127.0.61.200');
      reading = await readDevice({ host: '127.0.61.200', port, timeoutMs: 1000 }, registry);
      expect(reading.serialNumber).toBe(target.serial);
      await expect(readDevice({ host: target.ip, port, timeoutMs: 300, retries: 0 }, registry)).rejects.toMatchObject({ kind: 'timeout' });

      await post('/printers/0/offline');
      await expect(readDevice({ host: '127.0.61.200', port, timeoutMs: 300, retries: 0 }, registry)).rejects.toMatchObject({ kind: 'timeout' });
      await post('/printers/0/online');
      reading = await readDevice({ host: '127.0.61.200', port, timeoutMs: 1000 }, registry);
      expect(reading.serialNumber).toBe(target.serial);

      const list = (await (await fetch(`${control.url}/printers`)).json()) as unknown[];
      expect(list).toHaveLength(MODELS.length);
      expect((await post('/printers/999/jam')).status).toBe(404);
    } finally {
      await control.close();
    }
  });
});
