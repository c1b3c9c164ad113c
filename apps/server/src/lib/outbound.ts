import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';

/**
 * Requests the server makes to addresses an administrator typed (notification channels,
 * issue 42). An address must never turn the server against itself or its host (SSRF): loopback,
 * link-local (cloud metadata at 169.254.169.254), unspecified and multicast addresses are refused
 * unless the administrator allowed internal addresses for that one destination. The name is
 * resolved, every address it has is checked, and the request goes to the address checked, not
 * to a second lookup a DNS rebinding could answer differently.
 */
const INTERNAL = new BlockList();
INTERNAL.addSubnet('0.0.0.0', 8, 'ipv4');
INTERNAL.addSubnet('127.0.0.0', 8, 'ipv4');
INTERNAL.addSubnet('169.254.0.0', 16, 'ipv4');
INTERNAL.addSubnet('224.0.0.0', 4, 'ipv4');
INTERNAL.addAddress('255.255.255.255', 'ipv4');
INTERNAL.addAddress('::', 'ipv6');
INTERNAL.addAddress('::1', 'ipv6');
INTERNAL.addSubnet('fe80::', 10, 'ipv6');
INTERNAL.addSubnet('ff00::', 8, 'ipv6');
// NAT64 for local use (RFC 8215): where it carries its IPv4 address depends on the network.
INTERNAL.addSubnet('64:ff9b:1::', 48, 'ipv6');

/** Why an address is refused: an i18n key and its parameters (the host alone, never a path: a Slack URL's path is its secret). */
export class OutboundRefused extends Error {
  readonly key: string;
  readonly params: Record<string, unknown>;
  constructor(key: string, params: Record<string, unknown>) {
    super(key);
    this.key = key;
    this.params = params;
  }
}

/** The eight 16-bit groups of an IPv6 address, a zone dropped and a trailing dotted IPv4 part read. */
function ipv6Groups(address: string): number[] {
  let text = address.replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const groups = (part: string | undefined) => (part ? part.split(':').map((h) => parseInt(h, 16)) : []);
  const h = groups(head);
  const t = groups(tail);
  return tail === undefined ? h : [...h, ...Array<number>(8 - h.length - t.length).fill(0), ...t];
}

const ipv4Of = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/**
 * The IPv4 addresses an IPv6 address carries, where a host or a gateway would deliver to them:
 * IPv4-compatible (::/96), -mapped (::ffff:0:0/96), -translated (::ffff:0:0:0/96), NAT64's
 * well-known prefix (64:ff9b::/96), 6to4 (2002::/16) and Teredo (2001::/32: its server, and its
 * client inverted).
 */
function carriedIpv4(g: number[]): string[] {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const last = ipv4Of(g[6]!, g[7]!);
  if (zeros(0, 6) || (zeros(0, 5) && g[5] === 0xffff) || (zeros(0, 4) && g[4] === 0xffff && g[5] === 0)) return [last];
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return [last];
  if (g[0] === 0x2002) return [ipv4Of(g[1]!, g[2]!)];
  if (g[0] === 0x2001 && g[1] === 0) return [ipv4Of(g[2]!, g[3]!), ipv4Of(g[6]! ^ 0xffff, g[7]! ^ 0xffff)];
  return [];
}

/**
 * Whether an address is loopback, link-local, unspecified or multicast; an IPv6 address also when
 * an IPv4 address it carries is (in any spelling: the one place that reads and classifies an
 * address, at save and at every send). Anything that is not an address is internal.
 */
export function isInternalAddress(address: string): boolean {
  const family = isIP(address.replace(/%.*$/, ''));
  if (family === 4) return INTERNAL.check(address, 'ipv4');
  if (family !== 6) return true;
  const groups = ipv6Groups(address);
  if (groups.length !== 8 || groups.some((x) => !(x >= 0 && x <= 0xffff))) return true;
  const text = groups.map((x) => x.toString(16)).join(':');
  return INTERNAL.check(text, 'ipv6') || carriedIpv4(groups).some((a) => INTERNAL.check(a, 'ipv4'));
}

export type Resolved = { url: URL; address: string; family: 4 | 6 };
export type HostAddress = { address: string; family: 4 | 6 };

/**
 * The one address a connection to the host will use (every address it has checked); refused
 * (OutboundRefused) when not allowed. Also for what is not HTTP (an LDAP directory, issue 55).
 */
export async function resolveHost(rawHost: string, allowInternal: boolean): Promise<HostAddress> {
  const host = rawHost.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      throw new OutboundRefused('channel.unresolved', { host });
    }
  }
  if (!addresses.length) throw new OutboundRefused('channel.unresolved', { host });
  if (!allowInternal && addresses.some((a) => isInternalAddress(a.address))) throw new OutboundRefused('channel.internalAddress', { host });
  return { address: addresses[0]!.address, family: addresses[0]!.family === 6 ? 6 : 4 };
}

/** The URL and the one address a request to it will use; refused (OutboundRefused) when not allowed. */
export async function resolveOutbound(raw: string, allowInternal: boolean): Promise<Resolved> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundRefused('channel.badUrl', {});
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRefused('channel.badUrl', {});
  return { url, ...(await resolveHost(url.hostname, allowInternal)) };
}

export type OutboundAnswer = { status: number; body: string };

/** How long a request may take in all (connection, sending, the answer). */
const TIMEOUT_MS = 10_000;
/** How much of an answer is read: enough for an error's description. */
const ANSWER_MAX = 16_384;

/**
 * POSTs `body` to a resolved address (the Host header and TLS name stay the URL's). No redirect
 * is followed: a redirect could lead anywhere, past the check.
 */
export function postTo(target: Resolved, body: string, headers: Record<string, string>): Promise<OutboundAnswer> {
  return requestTo(target, { method: 'POST', body, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });
}

/** A request to a resolved address, as postTo; `max`: how much of the answer is read (past it, an error). */
export function requestTo(target: Resolved, opts: { method: 'GET' | 'POST'; body?: string; headers?: Record<string, string>; max?: number }): Promise<OutboundAnswer> {
  const mod = target.url.protocol === 'https:' ? https : http;
  const body = opts.body ?? '';
  const max = opts.max ?? ANSWER_MAX;
  const headers: Record<string, string> = { 'user-agent': 'Pagewatch', ...(opts.method === 'POST' ? { 'content-length': String(Buffer.byteLength(body)) } : {}), ...opts.headers };
  return new Promise((resolve, reject) => {
    const req = mod.request(target.url, {
      method: opts.method,
      headers,
      timeout: TIMEOUT_MS,
      lookup: ((_host: string, o: { all?: boolean }, cb: (...args: unknown[]) => void) => {
        if (o?.all) cb(null, [{ address: target.address, family: target.family }]);
        else cb(null, target.address, target.family);
      }) as never,
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (text.length < max) text += chunk;
        // A caller that needs the whole answer (a JSON document) is told it was too long.
        else if (opts.max) req.destroy(new Error(`the answer is longer than ${max} bytes`));
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text.slice(0, max) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    req.on('error', reject);
    req.end(opts.method === 'POST' ? body : undefined);
  });
}
