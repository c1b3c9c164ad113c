import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RttTable } from '../snmp/rtt-estimator.ts';
import { MAX_STORED_DEVICES, loadRttTable, saveRttTable } from './rtt-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'pagewatch-rtt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function collecting(): { log: (level: string, message: string) => void; lines: string[] } {
  const lines: string[] = [];
  return { lines, log: (level, message) => lines.push(`${level} ${message}`) };
}

describe('answer times kept across restarts', () => {
  it('gives a restarted agent the same waits and the same devices heard from', () => {
    const table = new RttTable();
    for (const ms of [40, 60, 50]) table.get('10.0.0.1', 161).sample(ms);
    table.get('10.0.0.2', 1161).sample(1500);
    table.get('10.0.0.3', 161).failed(); // never heard from: nothing to keep
    const path = join(dir, 'round-trip.json');
    saveRttTable(table, path);
    expect(existsSync(`${path}.tmp`)).toBe(false);

    const { log, lines } = collecting();
    const back = loadRttTable(path, log);
    expect(lines).toEqual([]);
    expect(back.answered().sort()).toEqual(['10.0.0.1:161', '10.0.0.2:1161']);
    expect(back.peek('10.0.0.1', 161)!.timeoutMs()).toBe(table.peek('10.0.0.1', 161)!.timeoutMs());
    expect(back.peek('10.0.0.2', 1161)!.slow).toBe(true);
  });

  it('keeps only the newest devices, so the file stays bounded', () => {
    const table = new RttTable(undefined, MAX_STORED_DEVICES + 10);
    for (let i = 0; i < MAX_STORED_DEVICES + 10; i++) table.get(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, 161).sample(20);
    const path = join(dir, 'bounded.json');
    saveRttTable(table, path);
    const back = loadRttTable(path, () => undefined);
    expect(back.size).toBe(MAX_STORED_DEVICES);
    expect(back.peek('10.0.0.0', 161)).toBeUndefined();
    expect(readFileSync(path).length).toBeLessThan(8 * 1024 * 1024);
  });

  it('ignores a torn, foreign or older file with one warning, and skips entries that make no sense', () => {
    const cases: Array<[string, RegExp]> = [
      ['{"format":"pagewatch-agent-rtt","version":1,"devices":[["10.0', /not valid JSON/],
      ['{"format":"pagewatch-agent-rtt","version":0,"devices":[]}', /not version 1/],
      ['[1,2,3]', /not version 1/],
      ['', /not valid JSON/],
    ];
    for (const [body, warning] of cases) {
      const path = join(dir, 'bad.json');
      writeFileSync(path, body);
      const { log, lines } = collecting();
      expect(loadRttTable(path, log).size).toBe(0);
      expect(lines).toEqual([expect.stringMatching(warning)]);
    }
    const path = join(dir, 'entries.json');
    const devices = [['10.0.0.1:161', 40, 10, 250], ['10.0.0.300:161', 40, 10, 250], ['10.0.0.2:161', -5, 10, 250], ['10.0.0.3:161', 40, 10, 'x'], ['nonsense'], ['10.0.0.4:0', 40, 10, 250]];
    writeFileSync(path, JSON.stringify({ format: 'pagewatch-agent-rtt', version: 1, devices }));
    const { log, lines } = collecting();
    expect(loadRttTable(path, log).answered()).toEqual(['10.0.0.1:161']);
    expect(lines).toEqual([expect.stringMatching(/5 entries that make no sense were skipped/)]);
    // A first start has no file: nothing to say.
    const first = collecting();
    expect(loadRttTable(join(dir, 'absent.json'), first.log).size).toBe(0);
    expect(first.lines).toEqual([]);
  });
});
