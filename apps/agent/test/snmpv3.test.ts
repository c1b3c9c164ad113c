import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDevice } from '../src/run/read-device.ts';
import { createDefaultRegistry } from '../src/profiles/models-pack.loader.ts';
import { SnmpError } from '../src/snmp/snmp-error.ts';
import { freeUdpPort, removeDir, stopChild } from './helpers/processes.ts';

/**
 * SNMPv3 against a real agent: net-snmp's snmpd (Debian package `snmpd`) on 127.0.0.1, with
 * users for each security level. snmpsim 0.4.5 does not answer this client's v3 requests, so
 * snmpd is the reference here; it makes itself look like a Kyocera printer through overrides.
 */
const snmpd = ['/usr/sbin/snmpd', '/usr/bin/snmpd'].find((p) => spawnSync(p, ['-v']).status === 0) ?? null;
let port = 0;
let dir = '';
let proc: ChildProcess | null = null;

const CONFIG = `
createUser pwpriv SHA "auth-pass-123" AES "priv-pass-123"
createUser pwauth SHA256 "auth-pass-456"
createUser pwnone
rouser pwpriv priv
rouser pwauth auth
rouser pwnone noauth
sysDescr KYOCERA Document Solutions Printing System
sysName v3-printer
override .1.3.6.1.2.1.1.2.0 objectid .1.3.6.1.4.1.1347.41
override .1.3.6.1.2.1.43.5.1.1.17.1 octet_str "V3SERIAL01"
override .1.3.6.1.2.1.43.10.2.1.4.1.1 counter 4242
`;

async function waitForAgent() {
  for (let i = 0; i < 50; i++) {
    const r = spawnSync('snmpget', ['-m', '', '-v3', '-l', 'noAuthNoPriv', '-u', 'pwnone', '-r', '0', '-t', '0.2', `127.0.0.1:${port}`, '1.3.6.1.2.1.1.5.0']);
    if (r.status === 0) return;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error('snmpd did not start');
}

const title = snmpd ? `SNMPv3 against snmpd (${snmpd})` : 'SNMPv3 against snmpd (skipped: the Debian package snmpd is not installed)';

describe.skipIf(!snmpd)(title, () => {
  beforeAll(async () => {
    port = await freeUdpPort();
    dir = mkdtempSync(join(tmpdir(), 'pagewatch-snmpd-'));
    writeFileSync(join(dir, 'snmpd.conf'), CONFIG);
    proc = spawn(snmpd!, ['-f', '-Lf', join(dir, 'log'), '-C', '-c', join(dir, 'snmpd.conf'), `--persistentDir=${join(dir, 'persist')}`, `udp:127.0.0.1:${port}`], {
      env: { ...process.env, MIBS: '' },
      stdio: 'ignore',
    });
    await waitForAgent();
  });
  afterAll(async () => {
    // snmpd writes its persistent state while it shuts down: remove its folder once it is gone.
    await stopChild(proc);
    removeDir(dir);
  });

  const target = (v3: Record<string, string>) => ({ host: '127.0.0.1', port, version: '3' as const, v3: v3 as never, timeoutMs: 1000, retries: 0 });
  const registry = createDefaultRegistry();

  it('reads a device with authentication and privacy (SHA, AES)', async () => {
    const r = await readDevice(target({ user: 'pwpriv', authProtocol: 'sha', authKey: 'auth-pass-123', privProtocol: 'aes', privKey: 'priv-pass-123' }), registry);
    expect(r.vendor).toBe('Kyocera');
    expect(r.serialNumber).toBe('V3SERIAL01');
    expect(r.counters.total).toBe(4242);
    expect(r.hostName).toBe('v3-printer');
  });

  it('reads with authentication only (SHA-256) and with neither', async () => {
    expect((await readDevice(target({ user: 'pwauth', authProtocol: 'sha256', authKey: 'auth-pass-456' }), registry)).serialNumber).toBe('V3SERIAL01');
    expect((await readDevice(target({ user: 'pwnone' }), registry)).sysDescr).toContain('KYOCERA');
  });

  it('fails clearly on a wrong key', async () => {
    const err = await readDevice(target({ user: 'pwpriv', authProtocol: 'sha', authKey: 'wrong-pass-999', privProtocol: 'aes', privKey: 'priv-pass-123' }), registry).catch((e) => e);
    expect(err).toBeInstanceOf(SnmpError);
    expect(err.message).toMatch(/digest|password|key/i);
  });
});
