import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Attribute, Change, Client } from 'ldapts';
import { freePort, stopChild } from './cups-server.ts';

const run = promisify(execFile);
const SLAPD = '/usr/sbin/slapd';

export const LDAP_BASE = 'dc=pagewatch,dc=test';
export const LDAP_READER = { dn: `cn=reader,${LDAP_BASE}`, password: 'reader-Secret-1' };
const ROOT = { dn: `cn=admin,${LDAP_BASE}`, password: 'root-Secret-1' };

export type LdapUser = { uid: string; password: string; mail: string; sn: string; givenName?: string; groups: string[] };

export type Slapd = {
  /** ldap:// (plain, and StartTLS) and ldaps:// on 127.0.0.1. */
  url: string;
  ldapsUrl: string;
  /** The PEM of the self-signed certificate slapd serves (its own CA). */
  caCert: string;
  /** Settings of a provider for this directory, as the API takes them. */
  settings(over?: Record<string, unknown>): Record<string, unknown>;
  /** Changes the directory as its administrator. */
  removeUser(uid: string): Promise<void>;
  setGroups(uid: string, groups: string[]): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
};

const userDn = (uid: string) => `uid=${uid},ou=people,${LDAP_BASE}`;
const groupDn = (cn: string) => `cn=${cn},ou=groups,${LDAP_BASE}`;
const memberChange = (operation: 'add' | 'delete', uid: string) => new Change({ operation, modification: new Attribute({ type: 'member', values: [userDn(uid)] }) });

/**
 * OpenLDAP's slapd of the test's own (Debian's), on 127.0.0.1 at ports the system chose, with a
 * directory generated in a temporary folder: `users` under ou=people, their groups (groupOfNames)
 * under ou=groups, and a read-only service account (LDAP_READER) to search with.
 */
export async function startSlapd(users: LdapUser[]): Promise<Slapd> {
  const dir = mkdtempSync(join(tmpdir(), 'pagewatch-slapd-'));
  mkdirSync(join(dir, 'data'));
  await run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
    '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')]);
  const conf = join(dir, 'slapd.conf');
  writeFileSync(conf, [
    'include /etc/ldap/schema/core.schema',
    'include /etc/ldap/schema/cosine.schema',
    'include /etc/ldap/schema/inetorgperson.schema',
    'modulepath /usr/lib/ldap',
    'moduleload back_mdb',
    `pidfile ${join(dir, 'slapd.pid')}`,
    `TLSCertificateFile ${join(dir, 'cert.pem')}`,
    `TLSCertificateKeyFile ${join(dir, 'key.pem')}`,
    'database mdb',
    `suffix "${LDAP_BASE}"`,
    `rootdn "${ROOT.dn}"`,
    `rootpw ${ROOT.password}`,
    `directory ${join(dir, 'data')}`,
    'access to attrs=userPassword by self read by anonymous auth by * none',
    'access to * by users read by * none',
    '',
  ].join('\n'));
  const entry = (lines: string[]) => lines.join('\n') + '\n';
  const groups = [...new Set(users.flatMap((u) => u.groups))];
  const ldif = [
    entry([`dn: ${LDAP_BASE}`, 'objectClass: dcObject', 'objectClass: organization', 'o: Pagewatch test', 'dc: pagewatch']),
    entry([`dn: ${LDAP_READER.dn}`, 'objectClass: organizationalRole', 'objectClass: simpleSecurityObject', 'cn: reader', `userPassword: ${LDAP_READER.password}`]),
    entry([`dn: ou=people,${LDAP_BASE}`, 'objectClass: organizationalUnit', 'ou: people']),
    entry([`dn: ou=groups,${LDAP_BASE}`, 'objectClass: organizationalUnit', 'ou: groups']),
    ...users.map((u) => entry([`dn: ${userDn(u.uid)}`, 'objectClass: inetOrgPerson', `uid: ${u.uid}`, `cn: ${u.givenName ?? ''} ${u.sn}`.trim(), `sn: ${u.sn}`,
      ...(u.givenName ? [`givenName: ${u.givenName}`] : []), `mail: ${u.mail}`, `userPassword: ${u.password}`])),
    // A groupOfNames needs a member: the service account holds every group's place.
    ...groups.map((g) => entry([`dn: ${groupDn(g)}`, 'objectClass: groupOfNames', `cn: ${g}`, `member: ${LDAP_READER.dn}`, ...users.filter((u) => u.groups.includes(g)).map((u) => `member: ${userDn(u.uid)}`)])),
  ].join('\n');
  writeFileSync(join(dir, 'data.ldif'), ldif);
  await run('/usr/sbin/slapadd', ['-f', conf, '-l', join(dir, 'data.ldif')]);
  const [port, ldapsPort] = [await freePort(), await freePort()];
  const url = `ldap://127.0.0.1:${port}`;
  const ldapsUrl = `ldaps://127.0.0.1:${ldapsPort}`;
  const caCert = readFileSync(join(dir, 'cert.pem'), 'utf8');
  let child: ChildProcess | null = null;
  let log = '';

  const admin = async <T>(work: (c: Client) => Promise<T>): Promise<T> => {
    const c = new Client({ url });
    try {
      await c.bind(ROOT.dn, ROOT.password);
      return await work(c);
    } finally {
      await c.unbind().catch(() => undefined);
    }
  };
  const start = async () => {
    // -d keeps slapd in the foreground, as the test's child, stopped by its PID.
    child = spawn(SLAPD, ['-f', conf, '-h', `${url}/ ${ldapsUrl}/`, '-d', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (d) => (log += d));
    child.stderr!.on('data', (d) => (log += d));
    for (let i = 0; i < 300; i++) {
      if (child.exitCode !== null) break;
      const up = await admin(async () => true).catch(() => false);
      if (up) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`slapd did not start: ${log.slice(-2000)}`);
  };

  const slapd: Slapd = {
    url,
    ldapsUrl,
    caCert,
    settings: (over = {}) => ({
      url,
      startTls: false,
      caCert: null,
      bindDn: LDAP_READER.dn,
      userBase: `ou=people,${LDAP_BASE}`,
      userFilter: '(uid={login})',
      groupBase: `ou=groups,${LDAP_BASE}`,
      groupFilter: '(member={dn})',
      ...over,
    }),
    removeUser: (uid) =>
      admin(async (c) => {
        for (const g of groups) await c.modify(groupDn(g), memberChange('delete', uid)).catch(() => undefined);
        await c.del(userDn(uid));
      }),
    setGroups: (uid, wanted) =>
      admin(async (c) => {
        // A member added twice or removed when absent is refused by slapd: nothing to change there.
        for (const g of groups) await c.modify(groupDn(g), memberChange(wanted.includes(g) ? 'add' : 'delete', uid)).catch(() => undefined);
      }),
    start,
    async stop() {
      const c = child;
      child = null;
      await stopChild(c);
    },
    async close() {
      await slapd.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await start();
  return slapd;
}
