import { fireDigest, hearsDeviceType, type TypeHandler } from './handler.ts';

/** A device's IP address changed: the old one and the new. */
export const ipChange: TypeHandler = {
  events: {
    hears: hearsDeviceType,
    facts: (kit, e) => ({ ...kit.facts(e, e.eventAt), ip: e.newValue ?? e.ip, oldIp: e.oldValue }),
  },
  fire: fireDigest,
};
