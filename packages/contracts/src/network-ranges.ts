import { z } from 'zod';
import { codedRefSchema, idRef, namedRefSchema, text } from './fields.ts';
import { NETWORK_RANGE_TYPES, networkRangeTypeSchema, rangeAddressFields } from './agent-api.ts';
import { defineList } from './list.ts';

export { NETWORK_RANGE_TYPES };

/** Most addresses one range may hold (a /16). */
export const MAX_RANGE_ADDRESSES = 65_536;

/**
 * The cap on discovery packets a second of a range (issue 22). The default, 5,000 a second,
 * is about 3.6 Mbit/s of small requests and sweeps a /16 in under 30 s; a slow or metered link
 * takes less, down to 10 (a /24 in about 50 s).
 */
export const PACKETS_PER_SECOND = { min: 10, max: 100_000, default: 5000 } as const;

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

export function isIpv4(s: string): boolean {
  return IPV4.test(s);
}

export function ipToInt(ip: string): number {
  return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

export function intToIp(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** A mask as dotted quad (255.255.255.0) or prefix (/24 or 24) → prefix length, or null if invalid. */
export function maskPrefix(mask: string): number | null {
  const m = /^\/?(\d{1,2})$/.exec(mask.trim());
  if (m) {
    const p = Number(m[1]);
    return p >= 0 && p <= 32 ? p : null;
  }
  if (!isIpv4(mask.trim())) return null;
  const n = ipToInt(mask.trim());
  const inverted = ~n >>> 0;
  // Contiguous ones then zeros: the inverted mask plus one is a power of two.
  if ((inverted & (inverted + 1)) !== 0) return null;
  return 32 - Math.log2(inverted + 1);
}

/** How many addresses a range covers. */
export function rangeSize(r: { type: string; address?: string | null; mask?: string | null; from?: string | null; to?: string | null }): number {
  if (r.type === 'RANGE') return r.from && r.to ? ipToInt(r.to) - ipToInt(r.from) + 1 : 0;
  if (r.type === 'NETMASK') {
    const p = r.mask ? maskPrefix(r.mask) : null;
    return p === null ? 0 : 2 ** (32 - p);
  }
  return 1;
}

const optionalText = text(255).trim().nullable().optional().transform((v) => (v ? v : null));

/**
 * A network range as the console edits it. SNMP v3 keys are write-only: `authKey`/`privKey`
 * absent or null keep the stored key, a string sets it; the API answers with `authKeySet`.
 */
export const networkRangeInputSchema = z
  .object({
    name: text(250).trim().nullable().optional(),
    type: networkRangeTypeSchema,
    address: optionalText,
    mask: optionalText,
    from: optionalText,
    to: optionalText,
    port: z.number('networks.badPort').int('networks.badPort').min(1, 'networks.badPort').max(65535, 'networks.badPort'),
    packetsPerSecond: z
      .number('networks.badPacketRate')
      .int('networks.badPacketRate')
      .min(PACKETS_PER_SECOND.min, 'networks.badPacketRate')
      .max(PACKETS_PER_SECOND.max, 'networks.badPacketRate')
      .optional(),
    snmpVersion: z.enum(['1', '2c', '3']),
    community: text(255).nullable().optional(),
    v3User: text(255).nullable().optional(),
    v3Level: z.enum(['noAuthNoPriv', 'authNoPriv', 'authPriv']).nullable().optional(),
    v3AuthProtocol: z.enum(['md5', 'sha', 'sha224', 'sha256', 'sha384', 'sha512']).nullable().optional(),
    authKey: text(255).nullable().optional(),
    v3PrivProtocol: z.enum(['des', 'aes', 'aes256b', 'aes256r']).nullable().optional(),
    privKey: text(255).nullable().optional(),
    agent: idRef.nullable().optional(),
    location: idRef.nullable().optional(),
    comment: text(2000).nullable().optional(),
  })
  .superRefine((r, ctx) => {
    const need = (field: 'address' | 'mask' | 'from' | 'to') => {
      if (!r[field]) ctx.addIssue({ code: 'custom', path: [field], message: 'general.mandatory' });
      return r[field];
    };
    const checkIp = (field: 'address' | 'from' | 'to') => {
      const v = need(field);
      if (v && !isIpv4(v)) ctx.addIssue({ code: 'custom', path: [field], message: 'networks.badIp' });
      return v && isIpv4(v) ? v : null;
    };
    if (r.type === 'BROADCAST' || r.type === 'NETMASK') {
      const address = checkIp('address');
      if (r.type === 'NETMASK' || r.mask) {
        const mask = r.type === 'NETMASK' ? need('mask') : r.mask;
        const prefix = mask ? maskPrefix(mask) : null;
        if (mask && prefix === null) ctx.addIssue({ code: 'custom', path: ['mask'], message: 'networks.badMask' });
        else if (r.type === 'NETMASK' && prefix !== null && 2 ** (32 - prefix) > MAX_RANGE_ADDRESSES) {
          ctx.addIssue({ code: 'custom', path: ['mask'], message: 'networks.tooLarge' });
        }
      }
      void address;
    } else {
      const from = checkIp('from');
      const to = checkIp('to');
      if (from && to) {
        const size = ipToInt(to) - ipToInt(from) + 1;
        if (size < 1) ctx.addIssue({ code: 'custom', path: ['to'], message: 'networks.fromAfterTo' });
        else if (size > MAX_RANGE_ADDRESSES) ctx.addIssue({ code: 'custom', path: ['to'], message: 'networks.tooLarge' });
      }
    }
    if (r.snmpVersion === '3') {
      if (!r.v3User) ctx.addIssue({ code: 'custom', path: ['v3User'], message: 'general.mandatory' });
      if (!r.v3Level) ctx.addIssue({ code: 'custom', path: ['v3Level'], message: 'general.mandatory' });
      if (r.v3Level === 'authNoPriv' || r.v3Level === 'authPriv') {
        if (!r.v3AuthProtocol) ctx.addIssue({ code: 'custom', path: ['v3AuthProtocol'], message: 'general.mandatory' });
        if (r.authKey && r.authKey.length < 8) ctx.addIssue({ code: 'custom', path: ['authKey'], message: 'networks.keyLength' });
      }
      if (r.v3Level === 'authPriv') {
        if (!r.v3PrivProtocol) ctx.addIssue({ code: 'custom', path: ['v3PrivProtocol'], message: 'general.mandatory' });
        if (r.privKey && r.privKey.length < 8) ctx.addIssue({ code: 'custom', path: ['privKey'], message: 'networks.keyLength' });
      }
    }
    // A missing community is checked by the server: it keeps the stored one on a change.
  });
export type NetworkRangeInput = z.input<typeof networkRangeInputSchema>;

/**
 * Where a range's community and v3 keys are sent: the agent that scans it (from its network),
 * the type, the addresses and the port. A change of any of them needs the stored secrets given
 * again (security.md, write-only secrets): the server refuses it, and the form asks for them
 * before it sends. A mask written another way ("/24", "255.255.255.0") is the same network.
 */
export type RangeDestination = { type: string; address: string | null; mask: string | null; from: string | null; to: string | null; port: number; agentId: number | null };
export function sameRangeDestination(a: RangeDestination, b: RangeDestination): boolean {
  if (a.type !== b.type || a.port !== b.port || a.agentId !== b.agentId) return false;
  if (a.type === 'RANGE') return a.from === b.from && a.to === b.to;
  const prefix = (m: string | null) => (m ? maskPrefix(m) ?? m : null);
  return a.address === b.address && prefix(a.mask) === prefix(b.mask);
}
/** Whether a change sends a range's stored secrets somewhere new: a range no agent scans sends them nowhere (until one is chosen, which is a move). */
export const rangeSecretsMove = (before: RangeDestination, after: RangeDestination) => after.agentId !== null && !sameRangeDestination(before, after);

/** What a range is, in the form, the card and the grid alike. */
const rangeFields = {
  id: z.number().int(),
  name: z.string().nullable(),
  ...rangeAddressFields,
  port: z.number().int(),
};

/** A range as the API returns it: the community and the v3 keys only as "set or not". */
export const networkRangeSchema = z.object({
  ...rangeFields,
  snmpVersion: z.enum(['1', '2c', '3']),
  communitySet: z.boolean(),
  v3User: z.string().nullable(),
  v3Level: z.enum(['noAuthNoPriv', 'authNoPriv', 'authPriv']).nullable(),
  v3AuthProtocol: z.string().nullable(),
  authKeySet: z.boolean(),
  v3PrivProtocol: z.string().nullable(),
  privKeySet: z.boolean(),
  agent: namedRefSchema.nullable(),
  location: codedRefSchema,
  comment: z.string().nullable(),
  addressCount: z.number().int(),
  packetsPerSecond: z.number().int(),
});
export type NetworkRange = z.infer<typeof networkRangeSchema>;

export const networkRangeListRowSchema = z.object({
  ...rangeFields,
  snmpVersion: z.string(),
  agentId: z.number().int().nullable(),
  agentName: z.string().nullable(),
  locationId: z.number().int(),
  locationName: z.string(),
});
export type NetworkRangeListRow = z.infer<typeof networkRangeListRowSchema>;

/** Range types, each defined once; broadcast is the recommended one (spec section 2). */
export const NETWORK_RANGE_TYPE_DEFS: Record<(typeof NETWORK_RANGE_TYPES)[number], { labelKey: string; recommended: boolean }> = {
  BROADCAST: { labelKey: 'networks.type.BROADCAST', recommended: true },
  NETMASK: { labelKey: 'networks.type.NETMASK', recommended: false },
  RANGE: { labelKey: 'networks.type.RANGE', recommended: false },
};

/** The network ranges grid (`/api/network-ranges`, `/api/network-ranges-v`). */
export const networkRangesList = defineList(networkRangeListRowSchema, {
  endpoint: '/network-ranges',
  defaultSort: [{ field: 'id', dir: 'ASC' }],
  columns: [
    'name', 'type', 'address', 'mask', 'from', 'to', 'port', 'snmpVersion', 'agentName',
    'locationName'
  ],
  hidden: ['agentId', 'locationId', 'id'],
  unsortable: ['agentId', 'locationId'],
});
