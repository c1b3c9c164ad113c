import type { AgentRange } from '@pagewatch/contracts/agent-api';

/** The most addresses one range may cover (a /16): beyond it a scan takes hours. */
export const MAX_RANGE_ADDRESSES = 65_536;

export class AddressRangeError extends Error {}

export function parseIpv4(text: string, what = 'address'): number {
  const parts = text.trim().split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) {
    throw new AddressRangeError(`${what} "${text}" is not an IPv4 address`);
  }
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

export const formatIpv4 = (n: number): string => [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');

/** A mask as a prefix length: "/24", "24" or "255.255.255.0" (contiguous ones only). */
export function parseMask(text: string): number {
  const t = text.trim().replace(/^\//, '');
  if (/^\d{1,2}$/.test(t)) {
    const prefix = Number(t);
    if (prefix > 32) throw new AddressRangeError(`mask /${t} is longer than 32 bits`);
    return prefix;
  }
  const n = parseIpv4(t, 'mask');
  const bits = n.toString(2).padStart(32, '0');
  if (!/^1*0*$/.test(bits)) throw new AddressRangeError(`mask "${text}" is not a contiguous netmask`);
  return bits.indexOf('0') === -1 ? 32 : bits.indexOf('0');
}

export type Subnet = { network: number; broadcast: number; prefix: number };

export function subnetOf(address: string, mask: string): Subnet {
  const ip = parseIpv4(address);
  const prefix = parseMask(mask);
  const size = 2 ** (32 - prefix);
  const network = Math.floor(ip / size) * size;
  return { network, broadcast: network + size - 1, prefix };
}

/** First and last host of a subnet: without its network and broadcast addresses below /31. */
export function subnetHosts(s: Subnet): [number, number] {
  return s.prefix >= 31 ? [s.network, s.broadcast] : [s.network + 1, s.broadcast - 1];
}

export const isLoopback = (n: number): boolean => Math.floor(n / 2 ** 24) === 127;

/** What scanning a range means: a list of addresses (as [first, last]) or one broadcast. */
export type ScanPlan =
  | { kind: 'sweep'; first: number; last: number; count: number; note?: string }
  | { kind: 'broadcast'; address: number; hosts: [number, number] };

function checkSize(first: number, last: number): void {
  const count = last - first + 1;
  if (count > MAX_RANGE_ADDRESSES) {
    throw new AddressRangeError(`the range has ${count} addresses; at most ${MAX_RANGE_ADDRESSES} (a /16) can be scanned`);
  }
}

export function planScan(range: Pick<AgentRange, 'type' | 'address' | 'mask' | 'from' | 'to'>): ScanPlan {
  if (range.type === 'RANGE') {
    if (!range.from || !range.to) throw new AddressRangeError('an IP range needs a first and a last address');
    const first = parseIpv4(range.from, 'first address');
    const last = parseIpv4(range.to, 'last address');
    if (last < first) throw new AddressRangeError(`the last address ${range.to} comes before the first ${range.from}`);
    checkSize(first, last);
    return { kind: 'sweep', first, last, count: last - first + 1 };
  }
  if (!range.address || (!range.mask && range.type !== 'BROADCAST')) {
    throw new AddressRangeError(`a ${range.type.toLowerCase()} range needs an address and a mask`);
  }
  // A broadcast range may be given by its broadcast address alone (x.y.z.255): a /24 then.
  const subnet = subnetOf(range.address, range.mask ?? '24');
  const [first, last] = subnetHosts(subnet);
  if (range.type === 'BROADCAST') {
    // 127.0.0.0/8 has no broadcast (the loopback interface does not deliver to x.x.x.255),
    // so on loopback — the simulator's home — a broadcast range is swept host by host.
    if (isLoopback(subnet.network)) {
      checkSize(first, last);
      return { kind: 'sweep', first, last, count: last - first + 1, note: 'loopback has no broadcast: swept address by address' };
    }
    return { kind: 'broadcast', address: subnet.broadcast, hosts: [first, last] };
  }
  checkSize(first, last);
  return { kind: 'sweep', first, last, count: last - first + 1 };
}

/** Parses the `scan` command's range: "a.b.c.d/24", "a.b.c.d/255.255.255.0", "a.b.c.d-e.f.g.h". */
export function parseRangeText(text: string, broadcast = false): Pick<AgentRange, 'type' | 'address' | 'mask' | 'from' | 'to'> {
  const dash = text.split('-');
  if (dash.length === 2) return { type: 'RANGE', address: null, mask: null, from: dash[0]!.trim(), to: dash[1]!.trim() };
  const slash = text.split('/');
  if (slash.length === 2) return { type: broadcast ? 'BROADCAST' : 'NETMASK', address: slash[0]!.trim(), mask: slash[1]!.trim(), from: null, to: null };
  if (slash.length === 1 && dash.length === 1) return { type: 'RANGE', address: null, mask: null, from: text.trim(), to: text.trim() };
  throw new AddressRangeError(`"${text}" is not a range: use a.b.c.d/24, a.b.c.d/255.255.255.0 or a.b.c.d-e.f.g.h`);
}
