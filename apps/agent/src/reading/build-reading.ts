import { emptyCounters, type Reading } from '@pagewatch/contracts/reading';
import type { ProfileRegistry } from '../profiles/profile-registry.ts';
import { colorType, deviceType, isPrinter, paperFormat, ratedSpeed } from './classify.reader.ts';
import { monoDeviceCounters, readCounters } from './counters.reader.ts';
import { printerDeviceIndex, readIdentity } from './identity.reader.ts';
import { MibData } from './mib-data.ts';
import { SYS } from './printer-mib.ts';
import { readStatus } from './status.reader.ts';
import { readSupplies } from './supplies.reader.ts';
import { withRecordSupplies } from './record-supplies.reader.ts';
import { readTrays } from './trays.reader.ts';

export type BuildReadingOptions = {
  /** ISO time of the reading; now by default. */
  readAt?: string;
  /** Problems met while talking to the device, carried into the reading. */
  problems?: string[];
};

function emptyReading(readAt: string, modelsVersion: number | null, problems: string[]): Reading {
  return {
    schema: 'pagewatch/reading@1',
    readAt,
    profileId: null,
    modelsVersion,
    sysObjectID: null, sysDescr: null, vendor: null, model: null, serialNumber: null,
    macAddress: null, firmware: null, hostName: null, location: null,
    isPrinter: false,
    deviceType: null, colorType: null, paperFormat: null,
    status: { deviceStatus: null, printerStatus: null, errors: [], errorStateHex: null },
    counters: emptyCounters(),
    supplies: [],
    trays: [],
    problems,
  };
}

/**
 * Turns whatever a device answered into one normalised reading. Pure and total: any input,
 * however malformed, gives a reading; what could not be read is listed in `problems`.
 */
export function buildReading(varbinds: Iterable<unknown>, registry: ProfileRegistry, options: BuildReadingOptions = {}): Reading {
  const readAt = options.readAt ?? new Date().toISOString();
  const problems = [...(options.problems ?? [])];
  try {
    const data = new MibData(varbinds, problems);
    const sysObjectIdVb = data.get(SYS.objectId);
    const sysObjectID = sysObjectIdVb?.type === 'oid' && typeof sysObjectIdVb.value === 'string' ? sysObjectIdVb.value : null;
    const { profile, matched } = registry.match(sysObjectID, data.text(SYS.descr, 'sysDescr'));
    const { identity } = readIdentity(data, profile);
    const supplies = withRecordSupplies(data, profile, identity.model, readSupplies(data, profile, identity.model));
    const trays = readTrays(data);
    const read = readCounters(data, profile);
    const printer = isPrinter(data, profile, matched, identity);
    const colors = colorType(data, supplies, read, profile, identity.model);
    const counters = monoDeviceCounters(read, colors);
    const ppm = ratedSpeed(profile, identity);
    if (data.size === 0) data.problem('the device gave no data');
    return {
      ...emptyReading(readAt, registry.version, data.problems),
      profileId: profile.id,
      ...identity,
      isPrinter: printer,
      deviceType: printer ? deviceType(data, profile, identity, counters) : null,
      colorType: colors,
      paperFormat: paperFormat(data, profile, identity),
      status: readStatus(data, printerDeviceIndex(data)),
      counters,
      supplies,
      trays,
      ...(ppm === null ? {} : { ratedPpm: ppm }),
    };
  } catch (error) {
    // A bug must not lose the device: report it as a problem of this reading.
    problems.push(`internal error while decoding: ${(error as Error)?.message ?? String(error)}`);
    return emptyReading(readAt, registry.version, problems);
  }
}
