import { z } from 'zod';
import { id, idParam, text } from './fields.ts';
import { SUPPLY_ORDER_LIMITS, SUPPLY_ORDER_STATE_CODES } from './supply-order-states.ts';

export * from './supply-order-states.ts';

const nstr = z.string().nullable();
const days = z.number('general.badValue').int('general.badValue').min(0, 'supplyOrders.badDays').max(SUPPLY_ORDER_LIMITS.days, 'supplyOrders.badDays');

/** A supply on the what-to-order list: forecast to run out within its location's horizon, or already low. */
export const suggestedSupplySchema = z.object({
  deviceId: z.number().int(),
  supplyIndex: z.number().int(),
  serialNumber: nstr,
  ip: nstr,
  partName: z.string(),
  level: z.number().int().nullable(),
  runsOutOn: nstr,
});

/**
 * A line of the what-to-order list (`GET /api/supply-orders/suggestions`): per location and part
 * model code, how many to order and which supplies they are for.
 */
export const supplySuggestionSchema = z.object({
  id: z.string(),
  locationId: z.number().int(),
  locationName: z.string(),
  partModelCode: nstr,
  partCode: z.string(),
  count: z.number().int(),
  earliest: nstr,
  supplies: z.array(suggestedSupplySchema),
});
export type SupplySuggestion = z.infer<typeof supplySuggestionSchema>;

/** `?location=`: one location (and those below it) of the caller's, or all of them. */
export const supplySuggestionsQuerySchema = z.object({
  location: idParam.optional(),
});

/** `POST /api/supply-orders`: orders the given supplies (one order each), with an optional reference. */
export const supplyOrderInputSchema = z.object({
  supplies: z.array(z.object({ deviceId: id, supplyIndex: z.number('general.badValue').int('general.badValue').min(0, 'general.badValue').max(2_147_483_647, 'general.badValue') }), 'general.mandatory')
    .min(1, 'general.mandatory').max(SUPPLY_ORDER_LIMITS.supplies, 'general.badValue'),
  reference: text(SUPPLY_ORDER_LIMITS.reference, { line: true }).trim().nullable().optional(),
});
export type SupplyOrderInput = z.infer<typeof supplyOrderInputSchema>;

/** An order of one device supply, with who moved it along and when. */
export const supplyOrderSchema = z.object({
  id: z.number().int(),
  deviceId: z.number().int(),
  supplyIndex: z.number().int(),
  locationId: z.number().int(),
  locationName: z.string(),
  serialNumber: nstr,
  partName: nstr,
  partModelCode: nstr,
  state: z.enum(SUPPLY_ORDER_STATE_CODES),
  reference: nstr,
  orderedBy: nstr,
  orderedAt: z.string(),
  shippedAt: nstr,
  installedAt: nstr,
  cancelledAt: nstr,
  closedBy: nstr,
});
export type SupplyOrder = z.infer<typeof supplyOrderSchema>;

/** `GET /api/supply-orders`: open orders only (default) or the recent closed ones too. */
export const supplyOrdersQuerySchema = z.object({
  location: supplySuggestionsQuerySchema.shape.location,
  device: supplySuggestionsQuerySchema.shape.location,
  open: z.enum(['true', 'false'], 'general.badValue').optional(),
});

/** A location's ordering settings: lead time and margin (days), and where orders are sent. */
export const supplyOrderSettingsSchema = z.object({
  locationId: z.number().int(),
  locationName: z.string(),
  leadDays: z.number().int(),
  marginDays: z.number().int(),
  /** Its own supplier address; `effectiveEmail` is its or the nearest parent's. */
  supplierEmail: nstr,
  effectiveEmail: nstr,
});
export type SupplyOrderSettings = z.infer<typeof supplyOrderSettingsSchema>;

export const supplyOrderSettingsInputSchema = z.object({
  leadDays: days,
  marginDays: days,
  supplierEmail: z.union([z.literal(''), text(SUPPLY_ORDER_LIMITS.email, { line: true }).trim().pipe(z.email('general.badEmail'))]).nullable().optional(),
});
export type SupplyOrderSettingsInput = z.infer<typeof supplyOrderSettingsInputSchema>;

/** The what-to-order file's columns, in order (their titles: `columnTitleKey`). */
export const SUGGESTION_FILE_COLUMNS = [
  { key: 'location', type: 'string' },
  { key: 'partModelCode', type: 'string' },
  { key: 'partType', type: 'string' },
  { key: 'orderCount', type: 'number' },
  { key: 'earliestRunOut', type: 'date', day: true },
] as const;

/** The file an order's e-mail to the supplier carries: one line per supply ordered. */
export const ORDER_FILE_COLUMNS = [
  { key: 'location', type: 'string' },
  { key: 'serialNumber', type: 'string' },
  { key: 'partModelCode', type: 'string' },
  { key: 'partType', type: 'string' },
  { key: 'orderReference', type: 'string' },
] as const;
