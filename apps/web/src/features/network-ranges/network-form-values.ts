import type { NetworkRange, NetworkRangeInput } from '@pagewatch/contracts/network-ranges';
import { PACKETS_PER_SECOND, networkRangeInputSchema, rangeSecretsMove } from '@pagewatch/contracts/network-ranges';
import { schemaFieldErrors } from '../../components/form/schema-field-errors.ts';

/** The network form's values: text inputs hold strings; selects hold ids as strings. */
export type RangeFormValues = {
  name: string;
  type: 'BROADCAST' | 'NETMASK' | 'RANGE';
  address: string;
  mask: string;
  from: string;
  to: string;
  port: number | string;
  packetsPerSecond: number | string;
  snmpVersion: '1' | '2c' | '3';
  community: string;
  v3User: string;
  v3Level: 'noAuthNoPriv' | 'authNoPriv' | 'authPriv' | null;
  v3AuthProtocol: string | null;
  authKey: string;
  v3PrivProtocol: string | null;
  privKey: string;
  agentId: string | null;
  locationId: string | null;
  comment: string;
};

export const emptyRange = (agentId: string | null, locationId: string | null): RangeFormValues => ({
  name: '', type: 'BROADCAST', address: '', mask: '', from: '', to: '', port: 161, packetsPerSecond: PACKETS_PER_SECOND.default, snmpVersion: '2c', community: 'public',
  v3User: '', v3Level: null, v3AuthProtocol: null, authKey: '', v3PrivProtocol: null, privKey: '',
  agentId, locationId, comment: '',
});

/** Secrets never come back from the server: their inputs start empty ("keep the stored one"). */
export function valuesOf(r: NetworkRange): RangeFormValues {
  return {
    name: r.name ?? '', type: r.type, address: r.address ?? '', mask: r.mask ?? '', from: r.from ?? '', to: r.to ?? '', port: r.port,
    packetsPerSecond: r.packetsPerSecond,
    snmpVersion: r.snmpVersion, community: '', v3User: r.v3User ?? '', v3Level: r.v3Level,
    v3AuthProtocol: r.v3AuthProtocol, authKey: '', v3PrivProtocol: r.v3PrivProtocol, privKey: '',
    agentId: r.agent ? String(r.agent.id) : null, locationId: String(r.location.id), comment: r.comment ?? '',
  };
}

export function inputOf(v: RangeFormValues): NetworkRangeInput {
  return {
    name: v.name || null, type: v.type, address: v.address || null, mask: v.mask || null, from: v.from || null, to: v.to || null,
    port: typeof v.port === 'number' ? v.port : Number(v.port),
    packetsPerSecond: typeof v.packetsPerSecond === 'number' ? v.packetsPerSecond : Number(v.packetsPerSecond || NaN), snmpVersion: v.snmpVersion, community: v.community || null,
    v3User: v.v3User || null, v3Level: v.v3Level, v3AuthProtocol: v.v3AuthProtocol as NetworkRangeInput['v3AuthProtocol'],
    authKey: v.authKey || null, v3PrivProtocol: v.v3PrivProtocol as NetworkRangeInput['v3PrivProtocol'], privKey: v.privKey || null,
    agent: v.agentId ? { id: Number(v.agentId) } : null, location: v.locationId ? { id: Number(v.locationId) } : null, comment: v.comment || null,
  };
}

/** Form field of a schema or server field ("agent" is the agentId select). */
export const formFieldOf = (field: string) => (field === 'agent' ? 'agentId' : field === 'location' ? 'locationId' : field.split('.')[0]);

/**
 * The stored secrets a new destination needs again (the server refuses it otherwise): changed
 * addresses, port or agent must not take the stored community or v3 keys along.
 */
export function secretsAgain(v: RangeFormValues, r: NetworkRange | null): Record<string, string> {
  if (!r) return {};
  const input = inputOf(v);
  const after = { type: input.type, address: input.address ?? null, mask: input.mask ?? null, from: input.from ?? null, to: input.to ?? null, port: input.port, agentId: input.agent?.id ?? null };
  if (!rangeSecretsMove({ type: r.type, address: r.address, mask: r.mask, from: r.from, to: r.to, port: r.port, agentId: r.agent?.id ?? null }, after)) return {};
  const v3 = v.snmpVersion === '3';
  const usesAuth = v3 && (v.v3Level === 'authNoPriv' || v.v3Level === 'authPriv');
  const errors: Record<string, string> = {};
  if (!v3 && r.communitySet && !v.community) errors.community = 'networks.communityAgain';
  if (usesAuth && r.authKeySet && !v.authKey) errors.authKey = 'networks.authKeyAgain';
  if (v.v3Level === 'authPriv' && v3 && r.privKeySet && !v.privKey) errors.privKey = 'networks.privKeyAgain';
  return errors;
}

/** The contracts' schema as the form's validation, and the secrets a move needs: field → i18n key. */
export function validateRange(v: RangeFormValues, range: NetworkRange | null = null): Record<string, string> {
  const errors = schemaFieldErrors(networkRangeInputSchema, inputOf(v), {
    fieldOf: formFieldOf,
    keyOf: (issue) => (issue.code === 'custom' || issue.message.includes('.') ? issue.message : 'networks.badValue'),
    known: secretsAgain(v, range),
  });
  if (!v.agentId && !v.locationId) errors.locationId = 'networks.locationRequired';
  return errors;
}
