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

/** Whether an address is loopback, link-local, unspecified or multicast (an IPv4-mapped IPv6 one as its IPv4). */
export function isInternalAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return INTERNAL.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (!family) return true;
  return INTERNAL.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export type Resolved = { url: URL; address: string; family: 4 | 6 };

/** The URL and the one address a request to it will use; refused (OutboundRefused) when not allowed. */
export async function resolveOutbound(raw: string, allowInternal: boolean): Promise<Resolved> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundRefused('channel.badUrl', {});
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRefused('channel.badUrl', {});
  const host = url.hostname.replace(/^\[|\]$/g, '');
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
  return { url, address: addresses[0].address, family: addresses[0].family === 6 ? 6 : 4 };
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
  const mod = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.request(target.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'Pagewatch', ...headers },
      timeout: TIMEOUT_MS,
      lookup: ((_host: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) => {
        if (opts?.all) cb(null, [{ address: target.address, family: target.family }]);
        else cb(null, target.address, target.family);
      }) as never,
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (text.length < ANSWER_MAX) text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text.slice(0, ANSWER_MAX) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    req.on('error', reject);
    req.end(body);
  });
}
