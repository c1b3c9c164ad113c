import type { Reading } from '@pagewatch/contracts/reading';
import type { ProfileRegistry, ResolvedProfile } from '../profiles/profile-registry.ts';
import { buildReading } from '../reading/build-reading.ts';
import { MibData } from '../reading/mib-data.ts';
import { STANDARD_WALKS, SYS } from '../reading/printer-mib.ts';
import { SnmpClient } from '../snmp/snmp-client.ts';
import type { SnmpTarget } from '../snmp/snmp-client.ts';
import { SnmpError } from '../snmp/snmp-error.ts';
import type { Varbind } from '../snmp/varbind.ts';

const GET_CHUNK = 10;
/** After this many requests in a row time out, the device is taken as gone; the rest is skipped. */
const MAX_TIMEOUTS = 2;
/** The problem a reading carries when the device went silent part-way. */
export const STOPPED_ANSWERING = 'the device stopped answering; the reading is incomplete';

/** Everything the profile needs besides the standard walks: table columns and scalars. */
export function planRequests(profile: ResolvedProfile): { walks: string[]; gets: string[] } {
  const walks = new Set<string>(STANDARD_WALKS);
  for (const t of profile.counterTables) {
    for (const column of [t.valueColumn, t.nameColumn, t.typeColumn, ...(t.typeColumns ?? []), t.sizeNames?.column]) if (column) walks.add(column);
  }
  if (profile.fallbackLevelColumn) walks.add(profile.fallbackLevelColumn);
  if (profile.fallbackDescriptionColumn) walks.add(profile.fallbackDescriptionColumn);
  const gets = new Set<string>();
  for (const s of [...profile.model, ...profile.serialNumber, ...profile.firmware, ...profile.hostName]) {
    if (s.oid) gets.add(s.oid);
  }
  for (const c of [...profile.counters, ...profile.recordCounters, ...profile.recordSupplies]) gets.add(c.oid);
  return { walks: [...walks], gets: [...gets] };
}

/**
 * Reads one device and returns its reading. Throws SnmpError only when the device does not
 * answer the first request at all; anything that fails later becomes a problem.
 */
export async function readDevice(target: SnmpTarget, registry: ProfileRegistry): Promise<Reading> {
  const client = new SnmpClient(target);
  const problems: string[] = [];
  const varbinds: Varbind[] = [];
  let timeouts = 0;
  /** Counts requests in a row that got nothing back but a timeout. */
  const settle = (error: SnmpError | null, gotSomething: boolean, what: string): void => {
    if (error) problems.push(`${what}: ${error.message}`);
    timeouts = error?.kind === 'timeout' && !gotSomething ? timeouts + 1 : 0;
  };
  try {
    try {
      varbinds.push(...(await client.get([SYS.descr, SYS.objectId, SYS.name, SYS.location])));
    } catch (error) {
      // A timeout after undecodable packets means something answers, but not SNMP.
      if (error instanceof SnmpError && error.kind === 'timeout' && client.sessionProblems.length > 0) {
        throw new SnmpError('invalid-response', `${target.host}:${target.port ?? 161} answers, but not with SNMP (${client.sessionProblems[0]})`);
      }
      throw error;
    }
    const first = new MibData(varbinds, []);
    const sysObjectIdVb = first.get(SYS.objectId);
    const sysObjectID = sysObjectIdVb?.type === 'oid' && typeof sysObjectIdVb.value === 'string' ? sysObjectIdVb.value : null;
    const { profile } = registry.match(sysObjectID, first.text(SYS.descr, 'sysDescr'));
    const plan = planRequests(profile);

    for (const root of plan.walks) {
      if (timeouts >= MAX_TIMEOUTS) break;
      const result = await client.walk(root);
      varbinds.push(...result.varbinds);
      settle(result.error, result.varbinds.length > 0, `walk of ${root} stopped`);
    }
    for (let i = 0; i < plan.gets.length && timeouts < MAX_TIMEOUTS; i += GET_CHUNK) {
      const chunk = plan.gets.slice(i, i + GET_CHUNK);
      try {
        varbinds.push(...(await client.get(chunk)));
        settle(null, true, '');
      } catch (error) {
        if (!(error instanceof SnmpError)) throw error;
        settle(error, false, `get of ${chunk.length} vendor values failed`);
      }
    }
    if (timeouts >= MAX_TIMEOUTS) problems.push(STOPPED_ANSWERING);
    problems.push(...client.sessionProblems);
    return buildReading(varbinds, registry, { problems });
  } finally {
    client.close();
  }
}
