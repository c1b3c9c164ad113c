import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentConfig } from '@pagewatch/contracts/agent-api';
import { createAgentRunner } from '../src/run/agent-runner.ts';
import { createHttpTransport } from '../src/run/transport.ts';
import { startFakeAgentServer, type FakeAgentServer } from './helpers/fake-agent-server.ts';
import { removeDir } from './helpers/processes.ts';
import { serveSnmprec, snmpsimAvailable, type Snmpsim } from './helpers/snmpsim.ts';

/**
 * Issue 44: a device that answers SNMP but is no printer (a Linux host, served by snmpsimd) is
 * reported NO_PRINTER_MIB, with the time its poll took; silent addresses around it are no devices.
 */
const HOST = [
  '1.3.6.1.2.1.1.1.0|4|Linux gateway 6.1.0 #1 SMP x86_64',
  '1.3.6.1.2.1.1.2.0|6|1.3.6.1.4.1.8072.3.2.10',
  '1.3.6.1.2.1.1.3.0|67|123456',
  '1.3.6.1.2.1.1.5.0|4|gateway',
  '1.3.6.1.2.1.1.6.0|4|rack 1',
  '1.3.6.1.2.1.2.1.0|2|2',
].join('\n');

let sim: Snmpsim | null = null;
let server: FakeAgentServer;
const dirs: string[] = [];

describe.skipIf(!snmpsimAvailable())('device outcomes of a host that is no printer', () => {
  beforeAll(async () => {
    sim = await serveSnmprec('public', HOST);
    const config: AgentConfig = {
      agentId: 1, name: 'outcomes', periodicityMinutes: 15, modelsVersion: null,
      ranges: [{ id: 40, type: 'RANGE', address: null, mask: null, from: '127.0.0.1', to: '127.0.0.1', port: sim.port, snmp: { version: '2c', community: 'public' } }],
    };
    server = await startFakeAgentServer(config);
  }, 60_000);
  afterAll(async () => {
    await sim?.stop();
    await server?.close();
    for (const d of dirs) removeDir(d);
  });

  it('reports it NO_PRINTER_MIB with the time its poll took', async () => {
    const spoolDir = mkdtempSync(join(tmpdir(), 'pagewatch-outcomes-'));
    dirs.push(spoolDir);
    const runner = createAgentRunner({
      transport: createHttpTransport({ serverUrl: server.url, token: server.token, timeoutMs: 2000 }),
      spoolDir, discovery: { timeoutMs: 1000, retries: 1 }, poll: { timeoutMs: 1000, retries: 1 },
      retryMinMs: 50, retryMaxMs: 200, sealAfterMs: 100, stopFlushMs: 3000,
    });
    try {
      const summary = await runner.runOnce();
      expect(summary.ranges[0]!.devices).toEqual([{ ip: '127.0.0.1', reason: 'NO_PRINTER_MIB', ms: expect.any(Number) }]);
      expect(summary.ranges[0]!.devices![0]!.ms).toBeGreaterThan(0);
      // The fake server checks each request against the contract: the outcomes got through.
      expect(await runner.flush(5000)).toBe(true);
    } finally {
      await runner.stop();
    }
  }, 60_000);
});
