import net, { isIP } from 'node:net';
import tls, { type ConnectionOptions } from 'node:tls';
import { Client, InvalidCredentialsError, NoSuchObjectError, SizeLimitExceededError } from 'ldapts';
import type { LdapSettings } from '@pagewatch/contracts/identity-providers';
import { OutboundRefused, resolveHost } from '../../lib/outbound.ts';
import { ProviderUnreachable, refusalKey, refusalText } from './provider-address.ts';

/** Where the directory is, and whether its addresses may be internal (the provider's setting). */
export type LdapTarget = LdapSettings & { allowInternal: boolean };

/** Who a directory says a user is, and the groups it lists them in. */
export type DirectoryUser = { externalId: string; login: string; email: string | null; lastName: string | null; firstName: string | null; groups: string[] };

/** The directory could not be asked (down, refused, TLS failed, the service account refused). */
export class DirectoryUnavailable extends ProviderUnreachable {}

/** A failure of the connection in words: unreachable, TLS, no such base, else the directory's own message. */
function unavailable(err: Error, prefix = ''): DirectoryUnavailable {
  const code = (err as { code?: string }).code ?? '';
  const message = `${prefix}${err.message}`;
  if (/^(ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|ENOTFOUND)$/.test(code) || /timeout|timed out/i.test(err.message)) return new DirectoryUnavailable(message, 'idp.test.unreachable', {});
  if (/^(ERR_TLS|ERR_SSL|UNABLE_TO|CERT_|DEPTH_ZERO|SELF_SIGNED)/.test(code) || /certificate|ssl|tls/i.test(err.message)) return new DirectoryUnavailable(message, 'idp.test.tls', { reason: err.message });
  if (err instanceof NoSuchObjectError) return new DirectoryUnavailable(message, 'idp.test.noBase', {});
  return new DirectoryUnavailable(message, 'idp.test.failed', { reason: message });
}

const TIMEOUT_MS = 10_000;

/** RFC 4515: a value inside a filter, so that a login such as `*)(uid=*` matches itself only. */
export const escapeFilter = (v: string) => v.replace(/[\\*()\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`);

const first = (v: unknown): string | null => {
  const x = Array.isArray(v) ? v[0] : v;
  if (x === undefined || x === null) return null;
  const s = Buffer.isBuffer(x) ? x.toString('utf8') : String(x);
  return s || null;
};

/**
 * One conversation with a directory: connect (ldaps://, or ldap:// with StartTLS when asked; the
 * certificate checked against the given CA or the system's), then `work`. The address is checked
 * as a notification channel's is (lib/outbound: SSRF) at every connection, and the connection
 * goes to the address checked: DNS may answer otherwise than at save. Every failure of the
 * connection or of the service account is DirectoryUnavailable.
 */
async function withDirectory<T>(s: LdapTarget, work: (c: Client) => Promise<T>): Promise<T> {
  const host = new URL(s.url).hostname.replace(/^\[|\]$/g, '');
  let address: string;
  try {
    ({ address } = await resolveHost(host, s.allowInternal));
  } catch (err) {
    if (err instanceof OutboundRefused) throw new DirectoryUnavailable(refusalText(err), refusalKey(err), err.params);
    throw err;
  }
  // The certificate is checked against the name typed (an address's own when it is one).
  const tlsOptions: ConnectionOptions = { host, ...(isIP(host) ? {} : { servername: host }), ...(s.caCert ? { ca: s.caCert } : {}) };
  const client = new Client({
    url: s.url, timeout: TIMEOUT_MS, connectTimeout: TIMEOUT_MS,
    ...(s.url.toLowerCase().startsWith('ldaps:') ? { tlsOptions } : {}),
    createConnection: ((port: number) => net.connect(port, address)) as never,
    // ldaps:// connects with (port, host, options); StartTLS with (options) over the socket made above.
    createSecureConnection: ((port: number | ConnectionOptions, _host?: string, o?: ConnectionOptions) =>
      typeof port === 'object' ? tls.connect(port) : tls.connect({ ...o, port, host: address })) as never,
  });
  try {
    if (s.startTls && s.url.toLowerCase().startsWith('ldap:')) await client.startTLS(tlsOptions).catch((err: Error) => { throw unavailable(err, 'StartTLS: '); });
    return await work(client);
  } catch (err) {
    if (err instanceof DirectoryUnavailable) throw err;
    throw unavailable(err as Error);
  } finally {
    await client.unbind().catch(() => undefined);
  }
}

async function serviceBind(c: Client, s: LdapSettings, bindPassword: string) {
  try {
    await c.bind(s.bindDn, bindPassword);
  } catch (err) {
    if (err instanceof InvalidCredentialsError) throw new DirectoryUnavailable('the service account was refused', 'idp.test.badBind', {});
    throw unavailable(err as Error);
  }
}

/** The user the filter finds for the login (exactly one), or null. */
async function findUser(c: Client, s: LdapSettings, login: string) {
  const { searchEntries } = await c.search(s.userBase, {
    scope: 'sub',
    filter: s.userFilter.replaceAll('{login}', escapeFilter(login)),
    attributes: [s.loginAttribute, s.emailAttribute, s.lastNameAttribute, s.firstNameAttribute],
    sizeLimit: 2,
  });
  return searchEntries.length === 1 ? searchEntries[0]! : null;
}

async function groupsOf(c: Client, s: LdapSettings, dn: string, login: string): Promise<string[]> {
  const filter = s.groupFilter.replaceAll('{dn}', escapeFilter(dn)).replaceAll('{login}', escapeFilter(login));
  const { searchEntries } = await c.search(s.groupBase, { scope: 'sub', filter, attributes: [s.groupAttribute], sizeLimit: 1000 });
  return searchEntries.map((e) => first(e[s.groupAttribute])).filter((g): g is string => !!g);
}

function userOf(s: LdapSettings, entry: Record<string, unknown> & { dn: string }, login: string, groups: string[]): DirectoryUser {
  return {
    externalId: entry.dn,
    login: first(entry[s.loginAttribute]) ?? login,
    email: first(entry[s.emailAttribute]),
    lastName: first(entry[s.lastNameAttribute]),
    firstName: first(entry[s.firstNameAttribute]),
    groups,
  };
}

/**
 * Signs a user in against the directory: bind as the service account, find the user, bind as
 * them with the password typed, then read their groups (as the service account again). An empty
 * password is refused here: a directory takes a bind without one as anonymous, a success.
 */
export async function ldapAuthenticate(s: LdapTarget, bindPassword: string, login: string, password: string): Promise<DirectoryUser | 'bad-credentials'> {
  if (!password) return 'bad-credentials';
  return withDirectory(s, async (c) => {
    await serviceBind(c, s, bindPassword);
    const entry = await findUser(c, s, login);
    if (!entry) return 'bad-credentials';
    try {
      await c.bind(entry.dn, password);
    } catch (err) {
      if (err instanceof InvalidCredentialsError) return 'bad-credentials';
      throw err;
    }
    await serviceBind(c, s, bindPassword);
    return userOf(s, entry, login, await groupsOf(c, s, entry.dn, login));
  });
}

/** The directory's user of a DN now, with their groups (the sync job); null: no longer listed. */
export async function ldapLookup(s: LdapTarget, bindPassword: string, dn: string): Promise<DirectoryUser | null> {
  return withDirectory(s, async (c) => {
    await serviceBind(c, s, bindPassword);
    const attributes = [s.loginAttribute, s.emailAttribute, s.lastNameAttribute, s.firstNameAttribute];
    const found = await c.search(dn, { scope: 'base', filter: '(objectClass=*)', attributes }).catch((err: Error) => {
      if (err instanceof NoSuchObjectError) return null;
      throw err;
    });
    const entry = found?.searchEntries[0];
    if (!entry) return null;
    const login = first(entry[s.loginAttribute]) ?? '';
    return userOf(s, entry, login, await groupsOf(c, s, entry.dn, login));
  });
}

/** What a test of the directory found: the users and groups its searches list (`more`: at least that many). */
export type DirectoryProbe = { users: number; groups: number; more: boolean };
const PROBE_LIMIT = 1000;

/** How many entries a search finds, up to the limit (a directory refuses to say more past it). */
async function countOf(c: Client, base: string, filter: string): Promise<{ n: number; more: boolean }> {
  try {
    const { searchEntries } = await c.search(base, { scope: 'sub', filter, attributes: ['1.1'], sizeLimit: PROBE_LIMIT });
    return { n: searchEntries.length, more: false };
  } catch (err) {
    if (err instanceof SizeLimitExceededError) return { n: PROBE_LIMIT, more: true };
    throw err;
  }
}

/**
 * The provider form's test (issue 55): bind as the service account, then the user search and the
 * group search with any login and any member. A failure is DirectoryUnavailable, with its reason.
 */
export async function ldapProbe(s: LdapTarget, bindPassword: string): Promise<DirectoryProbe> {
  return withDirectory(s, async (c) => {
    await serviceBind(c, s, bindPassword);
    const users = await countOf(c, s.userBase, s.userFilter.replaceAll('{login}', '*'));
    const groups = await countOf(c, s.groupBase, s.groupFilter.replaceAll('{dn}', '*').replaceAll('{login}', '*'));
    return { users: users.n, groups: groups.n, more: users.more || groups.more };
  });
}

