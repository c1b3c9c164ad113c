import { z } from 'zod';
import { nstr, nnum, pageCounters, supplyFields } from './devices.ts';
import { day, defineList, timestamp } from './list.ts';

/**
 * A device's history (spec section 3: dm-device-days, -days-v, -days-actual-v, -part-days,
 * -user-days, device history): one list each, declared once for the server's SQL and the
 * card's grids and charts (house style 4).
 */

/** A day's counters in the order of the grids' columns: the day, the device, each page counter. */
const DAY_COLUMNS = ['factDate', 'deviceId', ...(Object.keys(pageCounters) as (keyof typeof pageCounters)[]), 'statusCode', 'readings'] as const;

export const dmDeviceDayRowSchema = z.object({
  id: z.string(),
  factDate: day(),
  deviceId: z.number().int(),
  ...pageCounters,
  statusCode: nstr,
  readings: z.number().int(),
});
export type DmDeviceDayRow = z.infer<typeof dmDeviceDayRowSchema>;

/** Counters per device per day (dm-device-days). */
export const dmDeviceDaysList = defineList(dmDeviceDayRowSchema, {
  endpoint: '/dm-device-days/page',
  defaultSort: [{ field: 'factDate', dir: 'ASC' }],
  columns: [...DAY_COLUMNS],
});

export const dmDeviceDayVRowSchema = dmDeviceDayRowSchema.extend({
  modelCode: nstr,
  serialNumber: nstr,
  locationId: z.number().int(),
  dayTotal: nnum,
  dayMono: nnum,
  dayColor: nnum,
});
export type DmDeviceDayVRow = z.infer<typeof dmDeviceDayVRowSchema>;

/**
 * The same days with the day's pages (dm-device-days-v): each counter minus the one of the
 * device's previous day (the day's first reading on the device's first day).
 */
export const dmDeviceDaysVList = defineList(dmDeviceDayVRowSchema, {
  endpoint: '/dm-device-days-v/page',
  defaultSort: [{ field: 'factDate', dir: 'ASC' }],
  columns: [
    ...DAY_COLUMNS, 'modelCode', 'serialNumber', 'locationId', 'dayTotal', 'dayMono', 'dayColor'
  ],
});

/** The latest day of each device (dm-device-days-actual-v). */
export const dmDeviceDaysActualList = defineList(dmDeviceDayVRowSchema, {
  endpoint: '/dm-device-days-actual-v/page',
  defaultSort: [{ field: 'deviceId', dir: 'ASC' }],
  columns: [
    ...DAY_COLUMNS, 'modelCode', 'serialNumber', 'locationId', 'dayTotal', 'dayMono', 'dayColor'
  ],
});

export const dmDevicePartDayRowSchema = z.object({
  id: z.string(),
  factDate: day(),
  deviceId: z.number().int(),
  ...supplyFields,
  partSerialNumber: nstr,
  minLevel: nnum,
  replaced: z.boolean(),
});
export type DmDevicePartDayRow = z.infer<typeof dmDevicePartDayRowSchema>;

/** Supply levels per device, supply and day (dm-device-part-days). */
export const dmDevicePartDaysList = defineList(dmDevicePartDayRowSchema, {
  endpoint: '/dm-device-part-days/page',
  defaultSort: [{ field: 'factDate', dir: 'ASC' }],
  columns: [
    'factDate', 'deviceId', 'supplyIndex', 'partCode', 'colorant', 'partModelCode',
    'partSerialNumber', 'level', 'minLevel', 'levelState', 'replaced'
  ],
});

export const dmDeviceUserDayRowSchema = z.object({
  id: z.number().int(),
  factDate: day(),
  username: z.string(),
  printedPageCount: z.number().int(),
  /** Of the jobs that told their colour pages; null while none did. */
  colorPageCount: z.number().int().nullable(),
  deviceId: z.number().int(),
});
export type DmDeviceUserDayRow = z.infer<typeof dmDeviceUserDayRowSchema>;

/** Pages per user per device per day (spec section 3, Device user day). */
export const dmDeviceUserDaysList = defineList(dmDeviceUserDayRowSchema, {
  endpoint: '/dm-device-user-days/page',
  defaultSort: [{ field: 'factDate', dir: 'DESC' }],
  columns: ['factDate', 'username', 'printedPageCount', 'colorPageCount'],
  hidden: ['deviceId', 'id'],
});

export const dmDeviceHistoryRowSchema = z.object({
  id: z.number().int(),
  deviceId: z.number().int(),
  ip: z.string(),
  oldIp: nstr,
  dateFrom: timestamp(),
  dateTo: timestamp().nullable(),
});
export type DmDeviceHistoryRow = z.infer<typeof dmDeviceHistoryRowSchema>;

/** A device's addresses by period (dm-device-history): from `dateFrom` until `dateTo` (null: still). */
export const dmDeviceHistoryList = defineList(dmDeviceHistoryRowSchema, {
  endpoint: '/dm-device-history/page',
  defaultSort: [{ field: 'dateFrom', dir: 'DESC' }],
  columns: ['ip', 'oldIp', 'dateFrom', 'dateTo'],
  hidden: ['deviceId', 'id'],
});
