import { execFile } from 'node:child_process';
import { createSocket } from 'node:dgram';
import type { Socket } from 'node:dgram';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveSnmprec, snmpsimAvailable } from './helpers/snmpsim.ts';
import type { Snmpsim } from './helpers/snmpsim.ts';
import { printerDeviceLines } from './helpers/varbinds.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const cli = join(repoRoot, 'apps/agent/src/cli.ts');

type Run = { code: number; stdout: string; stderr: string };
function probe(...args: string[]): Promise<Run> {
  return new Promise((done) => {
    execFile(process.execPath, [cli, 'probe', ...args], (error, stdout, stderr) => {
      done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** One line on stderr, exit code 2, no stack trace. */
function expectCleanFailure(run: Run, message: RegExp, oneLine = true): void {
  expect(run.code).toBe(2);
  expect(run.stdout).toBe('');
  const lines = run.stderr.trim().split('\n');
  expect(lines[0]).toMatch(message);
  // Option errors add the usage text after the message line.
  if (oneLine) expect(lines).toHaveLength(1);
  expect(run.stderr).not.toMatch(/\n\s+at /);
}

// A small made-up printer (not corpus data) so this test runs in a user's clone too.
const SNMPREC = [
  '1.3.6.1.2.1.1.1.0|4|KYOCERA Document Solutions Printing System',
  '1.3.6.1.2.1.1.2.0|6|1.3.6.1.4.1.1347.41',
  '1.3.6.1.2.1.1.5.0|4|kyo-2nd-floor',
  ...printerDeviceLines({ descr: 'ECOSYS M2540dn' }),
  '1.3.6.1.2.1.43.8.2.1.9.1.1|2|250',
  '1.3.6.1.2.1.43.8.2.1.10.1.1|2|100',
  '1.3.6.1.2.1.43.8.2.1.13.1.1|4|Cassette 1',
  '1.3.6.1.2.1.43.10.2.1.4.1.1|65|123456',
  '1.3.6.1.2.1.43.11.1.1.5.1.1|2|3',
  '1.3.6.1.2.1.43.11.1.1.6.1.1|4|TK-1170',
  '1.3.6.1.2.1.43.11.1.1.8.1.1|2|7200',
  '1.3.6.1.2.1.43.11.1.1.9.1.1|2|-3',
  '1.3.6.1.4.1.1347.43.5.1.1.1.1|4|ECOSYS M2540dn',
  '1.3.6.1.4.1.1347.43.5.1.1.28.1|4|VCF8Z00001',
].join('\n');

let sim: Snmpsim | null = null;
let garbage: Socket | null = null;
let garbagePort = 0;

describe.skipIf(!snmpsimAvailable())('probe command', () => {
  beforeAll(async () => {
    sim = await serveSnmprec('kyocera', SNMPREC);
    // Something that answers every packet with bytes that are not SNMP.
    garbage = createSocket('udp4');
    garbage.on('message', (_msg, rinfo) => garbage?.send(Buffer.from('this is not BER at all'), rinfo.port, rinfo.address));
    await new Promise<void>((r) => garbage!.bind(0, '127.0.0.1', () => r()));
    garbagePort = garbage.address().port;
  });

  afterAll(async () => {
    garbage?.close();
    await sim?.stop();
  });

  it.each(['2c', '1'])('reads a device with SNMP v%s and prints JSON', async (version) => {
    const run = await probe('127.0.0.1', '--port', String(sim!.port), '--community', 'kyocera', '--snmp-version', version, '--json');
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout);
    expect(json).toMatchObject({
      vendor: 'Kyocera', model: 'ECOSYS M2540dn', serialNumber: 'VCF8Z00001', isPrinter: true, hostName: 'kyo-2nd-floor',
      deviceType: 'MFP', counters: { total: 123456 },
      status: { deviceStatus: 'running', printerStatus: 'idle', errors: [] },
    });
    expect(json.supplies).toEqual([expect.objectContaining({ index: 1, type: 'toner', description: 'TK-1170', level: -3, maxCapacity: 7200, levelState: 'SOME_REMAINING', percent: null })]);
    expect(json.trays).toEqual([expect.objectContaining({ index: 1, name: 'Cassette 1', level: 100, maxCapacity: 250, percent: 40 })]);
  });

  it('prints a readable table without --json', async () => {
    const run = await probe('127.0.0.1', '--port', String(sim!.port), '--community', 'kyocera');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Vendor\s+Kyocera/);
    // Each counter says how it was read; a monochrome device's black-and-white pages are its total.
    expect(run.stdout).toMatch(/Total\s+123456\s+1\.3\.6\.1\.2\.1\.43\.10\.2\.1\.4\.1\.1 \(Printer-MIB: prtMarkerLifeCount\)/);
    expect(run.stdout).toMatch(/Mono\s+123456\s+derived: mono device/);
    expect(run.stdout).toMatch(/1\s+TK-1170\s+toner\s+-\s+-3\s+7200\s+some remaining/);
    expect(run.stdout).toMatch(/1\s+Cassette 1\s+100\s+250\s+40%/);
  });

  it('fails cleanly for a wrong community', async () => {
    expectCleanFailure(await probe('127.0.0.1', '--port', String(sim!.port), '--community', 'nope', '--timeout', '300', '--retries', '0'), /^probe: no answer from 127\.0\.0\.1:\d+ \(unreachable, or wrong community\)$/);
  });

  it('fails cleanly when nothing listens', async () => {
    expectCleanFailure(await probe('127.0.0.1', '--port', '9', '--timeout', '300', '--retries', '0'), /^probe: no answer from 127\.0\.0\.1:9/);
  });

  it('fails cleanly on garbage answers', async () => {
    expectCleanFailure(await probe('127.0.0.1', '--port', String(garbagePort), '--timeout', '300', '--retries', '0'), /^probe: 127\.0\.0\.1:\d+ answers, but not with SNMP/);
  });

  it.each([
    [['--port', 'x', '127.0.0.1'], /--port must be an integer/],
    [['--snmp-version', '4', '127.0.0.1'], /--snmp-version must be one of/],
    [['--snmp-version', '3', '127.0.0.1'], /needs --user/],
    [[], /give exactly one host/],
    [['--bogus', '127.0.0.1'], /Unknown option/],
  ])('rejects bad options %j with exit code 2', async (args, message) => {
    expectCleanFailure(await probe(...args), message, false);
  });
});
