import { fireDigest, hearsDeviceType, type TypeHandler } from './handler.ts';

/** A supply or part of a device was replaced (its SUPPLY_REPLACED events). */
export const partReplacement: TypeHandler = {
  events: {
    hears: hearsDeviceType,
    facts: (kit, e) => ({
      ...kit.facts(e, e.eventAt),
      partType: e.partName ?? e.partCode, partModelCode: e.partModelCode, partSerialNumber: e.partSerialNumber, partInstallDatetime: e.eventAt,
    }),
  },
  fire: fireDigest,
};
