import { execFile } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { readingSchema } from '@pagewatch/contracts/reading';
import type { Reading } from '@pagewatch/contracts/reading';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDevice } from '../src/run/read-device.ts';
import { createDefaultRegistry } from '../src/profiles/models-pack.loader.ts';
import { ALLOWED_DIFFERENCES, SOME_REMAINING_REASON, compareWithExpected } from './helpers/corpus-compare.ts';
import type { Check, Expected } from './helpers/corpus-compare.ts';
import { makeSimDirs, snmpsimAvailable, startSnmpsim } from './helpers/snmpsim.ts';
import type { Snmpsim } from './helpers/snmpsim.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const corpusDir = resolve(repoRoot, '../shared/corpus');
const haveCorpus = existsSync(join(corpusDir, 'index.json'));
const haveSnmpsim = snmpsimAvailable();
const skipReason = !haveCorpus
  ? `skipped: corpus not found at ${corpusDir} (a user's clone has no ../shared)`
  : !haveSnmpsim
    ? 'skipped: snmpsimd is not installed (Debian package snmpsim)'
    : '';

type Dataset = { name: string; community: string; expected: Expected };

function loadDatasets(): Dataset[] {
  if (!haveCorpus) return [];
  const index = JSON.parse(readFileSync(join(corpusDir, 'index.json'), 'utf8')) as { datasets: Array<{ dataset: string }> };
  return index.datasets.map(({ dataset }) => ({
    name: dataset,
    community: dataset.replace(/^librenms-/, ''),
    expected: JSON.parse(readFileSync(join(corpusDir, dataset, 'expected.json'), 'utf8')) as Expected,
  }));
}

const datasets = loadDatasets();
const registry = haveCorpus ? createDefaultRegistry() : null;
const results = new Map<string, { checks: Check[]; reading: Reading }>();
let sim: Snmpsim | null = null;

describe.skipIf(skipReason !== '')(`corpus: every dataset served by snmpsim ${skipReason}`, () => {
  beforeAll(async () => {
    const dirs = makeSimDirs();
    for (const d of datasets) {
      // Copied at test time, never into the repository; community = file base name.
      const target = join(dirs.dataDir, `${d.community}.snmprec`);
      copyFileSync(join(corpusDir, d.name, 'device.snmprec'), target);
      chmodSync(target, 0o644);
    }
    sim = await startSnmpsim(dirs, datasets[0]!.community);
  });

  afterAll(async () => {
    await sim?.stop();
    printTable();
  });

  it.each(datasets.map((d) => [d.name, d] as const))('%s matches expected.json', async (_name, d) => {
    const reading = await readDevice(
      { host: '127.0.0.1', port: sim!.port, community: d.community, version: '2c', timeoutMs: 1000, retries: 1 },
      registry!,
    );
    expect(readingSchema.safeParse(reading).success).toBe(true);
    const checks = compareWithExpected(d.expected, reading);
    results.set(d.name, { checks, reading });
    const failed = checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`);
    expect(failed).toEqual([]);
  });

  it('reads the Sharp MX counter table into the split counters, each from its row of the walk', () => {
    // SHARP private MIB, counter table 1.3.6.1.4.1.2385.1.1.19.2.1: values in column 3, names in column 4.
    const c = results.get('librenms-sharp')!.reading.counters;
    const row = (index: string) => c.vendor.find((v) => v.oid === `1.3.6.1.4.1.2385.1.1.19.2.1.3.${index}`)?.value;
    expect(c.mono).toBe(row('5.4.61')); // "Black & White Total Count", 91,164
    expect(c.color).toBe(row('5.4.63')! + row('5.4.64')! + row('5.4.80')!); // full, two and single colour totals, 29,940
    expect(c.copies).toBe(row('4.4.60')); // "Copies"
    expect(c.scans).toBe(row('7.4.51')! + row('7.4.53')!); // black-and-white and colour scans: "Scan to E-mail/FTP", 13,534
    expect(c.duplex).toBe(row('1.4.75'));
    // prtMarkerLifeCount is the black-and-white and colour pages together.
    expect(c.total).toBe(c.mono! + c.color!);
    expect(c.derived).toEqual([]);
  });

  it('the probe CLI prints the same reading as JSON', async () => {
    const run = promisify(execFile);
    for (const community of ['ricoh_mpc3002', 'jetdirect_m880', 'sharp']) {
      const { stdout } = await run(process.execPath, [
        join(repoRoot, 'apps/agent/src/cli.ts'), 'probe', '127.0.0.1', '--port', String(sim!.port), '--community', community, '--json',
      ]);
      const json = JSON.parse(stdout) as Reading;
      const lib = results.get(`librenms-${community}`)?.reading;
      expect(json.vendor).toBe(lib?.vendor);
      expect(json.serialNumber).toBe(lib?.serialNumber);
      expect(json.counters.total).toBe(lib?.counters.total);
      expect(json.supplies.map((s) => [s.index, s.percent])).toEqual(lib?.supplies.map((s) => [s.index, s.percent]));
    }
  });

  it('the probe CLI exits 2 with one line for a wrong community', async () => {
    const run = promisify(execFile);
    const error = await run(process.execPath, [
      join(repoRoot, 'apps/agent/src/cli.ts'), 'probe', '127.0.0.1', '--port', String(sim!.port), '--community', 'no-such-device', '--timeout', '300', '--retries', '0',
    ]).catch((e: { code: number; stderr: string }) => e);
    expect((error as { code: number }).code).toBe(2);
    const stderr = (error as { stderr: string }).stderr;
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/no answer from 127\.0\.0\.1/);
  });
});

function printTable(): void {
  const rows = [['dataset', 'vendor', 'supplies+trays', 'counters', 'serial', 'model', 'firmware', 'all']];
  const count = (checks: Check[], pick: (c: Check) => boolean): string => {
    const picked = checks.filter(pick);
    return picked.length === 0 ? '-' : `${picked.filter((c) => c.ok).length}/${picked.length}`;
  };
  let ok = 0;
  let total = 0;
  for (const d of datasets) {
    const r = results.get(d.name);
    if (!r) {
      rows.push([d.name, 'not run', '', '', '', '', '', '']);
      continue;
    }
    const c = r.checks;
    ok += c.filter((x) => x.ok).length;
    total += c.length;
    rows.push([
      d.name.replace(/^librenms-/, ''),
      count(c, (x) => x.name === 'vendor'),
      count(c, (x) => x.name.startsWith('supply') || x.name.startsWith('tray')),
      count(c, (x) => x.name.startsWith('counter')),
      count(c, (x) => x.name === 'serial'),
      count(c, (x) => x.name === 'model'),
      count(c, (x) => x.name === 'firmware'),
      count(c, () => true),
    ]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const lines = rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  '));
  const allowed = Object.entries(ALLOWED_DIFFERENCES).map(([k, v]) => `  ${k}: ${v.why}`);
  console.log(
    [`Corpus matches (${ok}/${total} checks):`, ...lines, '', 'Deliberate differences from LibreNMS:', `  level -3: ${SOME_REMAINING_REASON}`, ...allowed].join('\n'),
  );
}
