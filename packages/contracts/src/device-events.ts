import { statusDefs } from './status-defs.ts';

/**
 * Events derived from readings (issue 5), stored in device_events for notifications, written to
 * the event log (group DEVICES) and published on the hub as DEVICE_EVENT.
 */
export const DEVICE_EVENT_TYPES = [
  'NEW_DEVICE',
  'NOT_AVAILABLE',
  'BACK_ONLINE',
  'STATUS_CHANGE',
  'IP_CHANGE',
  'SUPPLY_LOW',
  'SUPPLY_REPLACED',
  'COUNTER_BACKWARDS',
] as const;
export type DeviceEventType = (typeof DEVICE_EVENT_TYPES)[number];

/** A device's derived status; NOT_AVAILABLE after missed polls. */
export const DEVICE_STATUS_CODES = ['OK', 'WARNING', 'ERROR', 'NOT_AVAILABLE', 'UNKNOWN'] as const;
export type DeviceStatusCode = (typeof DEVICE_STATUS_CODES)[number];

/** Device statuses, each defined once: label key and colour (house style 5); home names them "working"… */
export const DEVICE_STATUS_DEFS = statusDefs<DeviceStatusCode>('notification.status', { OK: 'teal', WARNING: 'yellow', ERROR: 'red', NOT_AVAILABLE: 'gray', UNKNOWN: 'indigo' });

/**
 * Printer errors that need a person (hrPrinterDetectedErrorState bits, reading.ts): a device
 * reporting one, or in status ERROR, needs attention. Low paper or toner are not among them:
 * the supplies' forecast covers those.
 */
export const ATTENTION_ERRORS = [
  'noPaper', 'noToner', 'doorOpen', 'jammed', 'offline', 'serviceRequested', 'inputTrayMissing',
  'outputTrayMissing', 'markerSupplyMissing', 'outputFull',
] as const;

/** Supply percent below which SUPPLY_LOW is raised. */
export const DEFAULT_SUPPLY_THRESHOLD = 10;
/** A level rising by this many points (with counters moving forward) is a replacement. */
export const REPLACEMENT_JUMP = 30;
