import { z } from 'zod';
import { deviceFields, forecastFields, nstr, supplyFields } from './devices.ts';

export { FORECAST_REASONS, type ForecastReason } from './devices.ts';
import { defineList, timestamp } from './list.ts';
import { SUPPLY_ORDER_STATE_CODES } from './supply-order-states.ts';

/**
 * Consumables (spec section 3): the supplies of the devices (toners, drums, kits), one row per
 * supply of a device. The spec's endpoints keep their names (device-part-v, device-part-short-v).
 */

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
  /** The smallest step its level moves by (percentage points; issue 45): 10 or more is a coarse level. */
  levelStep: z.number().int().nullable(),
  /** The supply's open order's state (issue 45), none without one. */
  orderState: z.enum(SUPPLY_ORDER_STATE_CODES).nullable(),
});
export type ConsumableRow = z.infer<typeof consumableRowSchema>;

export const consumablesList = defineList(consumableRowSchema, {
  endpoint: '/device-part-v/page',
  defaultSort: [{ field: 'level', dir: 'ASC' }, { field: 'partName', dir: 'ASC' }],
  columns: [
    'colorant', 'partName', 'partModelCode', 'partSerialNumber', 'level', 'daysLeft', 'runsOutOn', 'orderState', 'modelCode', 'hostName',
    'ip', 'locationId', 'serialNumber', 'inventoryNumber', 'deviceType', 'colorType', 'paperFormat',
    'refreshDate'
  ],
  hidden: ['partCode', 'levelState', 'locationName', 'deviceId', 'pagesLeft', 'forecastReason', 'levelStep'],
  unsortable: ['orderState'],
  unfilterable: ['orderState'],
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

/**
 * How far the forecasts were off (issue 45): over the replacements of the last 90 days, the mean
 * absolute error in days of the forecast made `horizon` (7, 14, 30) days before; per part type,
 * and overall where `partCode` is null. `count`: the replacements compared.
 */
export const forecastAccuracySchema = z.object({
  partCode: z.string().nullable(),
  horizon: z.number().int(),
  mae: z.number(),
  count: z.number().int(),
});
export type ForecastAccuracy = z.infer<typeof forecastAccuracySchema>;

/** A level moving in steps this big or bigger (percentage points) is coarse (issue 45). */
export const COARSE_STEP = 10;
