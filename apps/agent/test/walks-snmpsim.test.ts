import { chmodSync, copyFileSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readingSchema } from '@pagewatch/contracts/reading';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatReading } from '../src/probe/reading-table.ts';
import { readDevice } from '../src/run/read-device.ts';
import { createDefaultRegistry } from '../src/profiles/models-pack.loader.ts';
import { buildReading } from '../src/reading/build-reading.ts';
import { makeSimDirs, snmpsimAvailable, startSnmpsim } from './helpers/snmpsim.ts';
import type { Snmpsim } from './helpers/snmpsim.ts';
import { varbinds } from './helpers/varbinds.ts';

/**
 * The project's own Brother and Epson walks (test/walks, issue 57) served by snmpsim and read as
 * the agent reads a printer: what it asks for must hold the vendor records, so the reading over
 * SNMP is the reading of the walk itself, and the probe's table names where each level came from.
 */
const walks = resolve(dirname(fileURLToPath(import.meta.url)), 'walks');
const FILES = ['brother-hl-l8260cdw', 'brother-dcp-l3550cdw', 'brother-hl-l2340dw', 'brother-mfc-j680dw', 'epson-cw-c6500au', 'epson-sc-t3405'];
const registry = createDefaultRegistry();
let sim: Snmpsim | null = null;

const overSnmp = (community: string) =>
  readDevice({ host: '127.0.0.1', port: sim!.port, community, version: '2c', timeoutMs: 1000, retries: 1 }, registry);
const ofWalk = (file: string) => buildReading(varbinds(readFileSync(join(walks, `${file}.snmprec`), 'utf8')), registry);

describe.skipIf(!snmpsimAvailable())('the Brother and Epson test walks over SNMP', () => {
  beforeAll(async () => {
    const dirs = makeSimDirs();
    for (const f of FILES) {
      const target = join(dirs.dataDir, `${f}.snmprec`);
      copyFileSync(join(walks, `${f}.snmprec`), target);
      chmodSync(target, 0o644);
    }
    sim = await startSnmpsim(dirs, 'brother-hl-l8260cdw');
  });
  afterAll(async () => {
    await sim?.stop();
  });

  it.each(FILES)('%s: the same supplies, counters and colour type as the walk', async (file) => {
    const reading = await overSnmp(file);
    expect(readingSchema.safeParse(reading).success).toBe(true);
    const walk = ofWalk(file);
    expect(reading.supplies).toEqual(walk.supplies);
    expect(reading.counters).toEqual(walk.counters);
    expect(reading.colorType).toBe(walk.colorType);
  });

  it('the probe\'s table says a level read from the maintenance record came from it', async () => {
    const table = formatReading(await overSnmp('brother-dcp-l3550cdw'));
    expect(table).toMatch(/How this was read/);
    expect(table).toMatch(/Black toner .* 30% +1\.3\.6\.1\.4\.1\.2435\.2\.3\.9\.4\.2\.1\.5\.5\.8\.0 \(brother: brInfoMaintenance, record 81 Black toner\)/);
  });
});
