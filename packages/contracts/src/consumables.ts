import { z } from 'zod';
import { deviceFields, nnum, nstr, supplyFields } from './devices.ts';
import { day, defineList, timestamp } from './list.ts';

/**
 * Consumables (spec section 3): the supplies of the devices (toners, drums, kits), one row per
 * supply of a device. The spec's endpoints keep their names (device-part-v, device-part-short-v).
 */

/** Why a supply has no forecast: too few days since it was put in, a level that does not fall with the pages, levels too scattered, no page counter. */
export const FORECAST_REASONS = ['TOO_LITTLE_HISTORY', 'NOT_USED', 'NOISY', 'NO_COUNTER'] as const;
export type ForecastReason = (typeof FORECAST_REASONS)[number];

/** When a supply runs out (the forecast job's last fit; issue 21): pages and days left, the day, or why not. */
export const forecastFields = {
  pagesLeft: nnum,
  daysLeft: nnum,
  runsOutOn: day().nullable(),
  forecastReason: z.enum(FORECAST_REASONS).nullable(),
};

/** A consumable row (spec section 3), plus levelState so unknown and "some remaining" are not numbers, and the forecast. */
export const consumableRowSchema = z.object({
  id: z.string(),
  deviceId: z.number().int(),
  ...supplyFields,
  partName: z.string(),
  partSerialNumber: nstr,
  ...deviceFields,
  device: z.object({ id: z.number().int(), serialNumber: nstr, inventoryNumber: nstr }),
  refreshDate: timestamp(),
  ...forecastFields,
});
export type ConsumableRow = z.infer<typeof consumableRowSchema>;

export const consumablesList = defineList(consumableRowSchema, {
  endpoint: '/device-part-v/page',
  defaultSort: [{ field: 'level', dir: 'ASC' }, { field: 'partName', dir: 'ASC' }],
  columns: [
    'colorant', 'partName', 'partModelCode', 'partSerialNumber', 'level', 'daysLeft', 'runsOutOn', 'modelCode', 'hostName',
    'ip', 'locationId', 'serialNumber', 'inventoryNumber', 'deviceType', 'colorType', 'paperFormat',
    'refreshDate'
  ],
  hidden: ['partCode', 'levelState', 'locationName', 'deviceId', 'pagesLeft', 'forecastReason'],
});

export const consumableShortRowSchema = z.object({
  id: z.string(),
  deviceId: z.number().int(),
  ...supplyFields,
  partName: z.string(),
});
export type ConsumableShortRow = z.infer<typeof consumableShortRowSchema>;

/** The short consumable row (device-part-short-v): one device's supplies, for pickers and the card. */
export const consumablesShortList = defineList(consumableShortRowSchema, {
  endpoint: '/device-part-short-v/page',
  defaultSort: [{ field: 'supplyIndex', dir: 'ASC' }],
  columns: [
    'deviceId', 'supplyIndex', 'partCode', 'partName', 'colorant', 'partModelCode', 'level',
    'levelState'
  ],
});
