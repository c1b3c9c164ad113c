/** The devices module's public surface: all that other modules, jobs and plugins may use of it (issue 40). */
export { DevicesService } from './devices.service.ts';
export { attentionSql, COUNT_LIMIT, deviceFieldsSql } from './devices.list.ts';
export { clearManaged, devicesBySerial, iso, setManaged } from './devices.repository.ts';
export { addressFlaps, identityPairs, pairsSeenBy, placedDevice, type AddressFlap, type PairDevice, type StoredPair } from './device-identity.repository.ts';
export { meterFlagDevices, meterFlagsByLocation, meterFlagsInPeriod, type LocationMeterFlags, type MeterFlagDevice } from './meter-flags.repository.ts';
export { deviceInScope } from './devices.service.ts';
