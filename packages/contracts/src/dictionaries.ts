import { z } from 'zod';
import { codedRefSchema, id, idRef, text } from './fields.ts';
import { defineList } from './list.ts';
import { locationRefSchema } from './users.ts';

/**
 * Dictionaries (spec section 3): LOCATION keeps its items in the locations table, the others in
 * dictionary_items; item ids come from one sequence, so an id names exactly one item.
 */
export const LOCATION_DICTIONARY = 'LOCATION';
export const DEFAULT_LOCATION_CODE = 'DEFAULT';

export const LOCATION_CODE_MAX = 50;
export const LOCATION_NAME_MAX = 250;
/** Room plan upload limit (spec sections 5 and 9). */
export const ROOM_PLAN_MAX_BYTES = 10 * 1024 * 1024;
export const ROOM_PLAN_TYPES = ['image/png', 'image/jpeg', 'image/svg+xml'] as const;

/** Attribute value types, as the settings have them: S string, N numeric, D date, F flag. */
export const ATTRIBUTE_VALUE_TYPES = ['N', 'S', 'D', 'F'] as const;
export type AttributeValueType = (typeof ATTRIBUTE_VALUE_TYPES)[number];

const code = text(50).trim().min(1, 'general.mandatory');
const name = text(250).trim().min(1, 'general.mandatory');
const optText = (max: number) => text(max).trim().nullish();

// ---- dictionaries and attributes -------------------------------------------------------------

export const dictionaryAttributeSchema = z.object({
  id: z.number().int(),
  dictionaryId: z.number().int(),
  code: z.string(),
  name: z.string(),
  valueType: z.enum(ATTRIBUTE_VALUE_TYPES),
  versioned: z.boolean(),
});
export type DictionaryAttribute = z.infer<typeof dictionaryAttributeSchema>;

export const dictionaryAttributeInputSchema = z.object({
  code,
  name,
  valueType: z.enum(ATTRIBUTE_VALUE_TYPES, 'general.mandatory'),
  versioned: z.boolean().default(false),
});
export type DictionaryAttributeInput = z.infer<typeof dictionaryAttributeInputSchema>;

export const dictionarySchema = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  nameRu: z.string().nullable(),
  hierarchical: z.boolean(),
  isSystem: z.boolean(),
  /** The owning location: its scope reads and changes the dictionary. Null for a system one. */
  location: locationRefSchema.nullable(),
  itemCount: z.number().int(),
  attributes: z.array(dictionaryAttributeSchema),
});
export type Dictionary = z.infer<typeof dictionarySchema>;

export const dictionaryListRowSchema = dictionarySchema.omit({ attributes: true, location: true });
export type DictionaryListRow = z.infer<typeof dictionaryListRowSchema>;

export const dictionaryInputSchema = z.object({
  code,
  name,
  nameRu: optText(250),
  hierarchical: z.boolean().default(false),
  /**
   * The owning location, in the caller's scope; none: the caller's own location on create, the
   * owner kept on change. A system dictionary has none.
   */
  location: idRef.nullish(),
});
export type DictionaryInput = z.infer<typeof dictionaryInputSchema>;

// ---- items ---------------------------------------------------------------------------------

/**
 * What only a location has (the dictionary-item form of spec section 3), each with its length
 * limit: the form's input and the answer hold the same fields.
 */
const LOCATION_DETAIL_MAX = {
  addressIndex: 20, city: 250, street: 250, house: 50, floor: 50, room: 50, contactName: 250, contactPosition: 250, contactPhones: 250,
} as const;
const locationDetailFields = <S extends z.ZodType>(field: (max: number) => S) =>
  Object.fromEntries(Object.entries(LOCATION_DETAIL_MAX).map(([key, max]) => [key, field(max)])) as Record<keyof typeof LOCATION_DETAIL_MAX, S>;

export const locationDetailsSchema = z.object({
  ...locationDetailFields(() => z.string().nullable()),
  /** Content type of the room plan, null when none is uploaded. */
  planType: z.string().nullable(),
});
export type LocationDetails = z.infer<typeof locationDetailsSchema>;

export const locationDetailsInputSchema = z.object(locationDetailFields(optText));
export type LocationDetailsInput = z.infer<typeof locationDetailsInputSchema>;

export const itemRefSchema = codedRefSchema;
export type ItemRef = z.infer<typeof itemRefSchema>;

export const dictionaryItemSchema = z.object({
  id: z.number().int(),
  dictionaryId: z.number().int(),
  dictionaryCode: z.string(),
  code: z.string(),
  name: z.string(),
  nameRu: z.string().nullable(),
  parentId: z.number().int().nullable(),
  parent: itemRefSchema.nullable(),
  sortOrder: z.number().int(),
  description: z.string().nullable(),
  /** Present for items of the LOCATION dictionary. */
  location: locationDetailsSchema.nullable(),
});
export type DictionaryItem = z.infer<typeof dictionaryItemSchema>;

/** A row of a dictionary's item list or lookup (`{ pageRows }`). */
export const dictionaryItemRowSchema = dictionaryItemSchema.pick({ id: true, code: true, name: true, nameRu: true, parentId: true, sortOrder: true });
export type DictionaryItemRow = z.infer<typeof dictionaryItemRowSchema>;

export const dictionaryItemInputSchema = z.object({
  dictionaryId: id,
  code,
  name,
  nameRu: optText(250),
  parentId: id.nullish(),
  sortOrder: z.number().int().min(-1_000_000).max(1_000_000).default(0),
  description: optText(4000),
  location: locationDetailsInputSchema.nullish(),
});
export type DictionaryItemInput = z.infer<typeof dictionaryItemInputSchema>;

/** A change: any subset of the fields; `{ parentId }` alone re-parents (drag in the tree). */
export const dictionaryItemPatchSchema = dictionaryItemInputSchema.omit({ dictionaryId: true }).partial().extend({
  sortOrder: z.number().int().min(-1_000_000).max(1_000_000).optional(),
});
export type DictionaryItemPatch = z.infer<typeof dictionaryItemPatchSchema>;

// ---- attribute values ----------------------------------------------------------------------

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'general.badValue');

export const attributeValueSchema = z.object({
  id: z.number().int(),
  attributeId: z.number().int(),
  itemId: z.number().int(),
  /** The date the value became valid (versioned attributes); null otherwise. */
  validFrom: isoDate.nullable(),
  stringValue: z.string().nullable(),
  numericValue: z.number().nullable(),
  dateValue: isoDate.nullable(),
  flagValue: z.boolean().nullable(),
});
export type AttributeValue = z.infer<typeof attributeValueSchema>;

export const attributeValueInputSchema = z.object({
  attributeId: id,
  validFrom: isoDate.nullish(),
  stringValue: text(4000).nullish(),
  numericValue: z.number().min(-1e15).max(1e15).nullish(),
  dateValue: isoDate.nullish(),
  flagValue: z.boolean().nullish(),
});
export type AttributeValueInput = z.infer<typeof attributeValueInputSchema>;

// ---- room plan -----------------------------------------------------------------------------

/** A device placed on a room plan; x and y are fractions (0..1) of the image width and height. */
export const planPlacementSchema = z.object({
  deviceId: id,
  x: z.number().min(0).max(1),
  y: z.number().min(0).max(1),
});
export type PlanPlacement = z.infer<typeof planPlacementSchema>;

export const planDeviceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  ip: z.string().nullable(),
  serialNumber: z.string().nullable(),
  statusCode: z.string().nullable(),
});
export type PlanDevice = z.infer<typeof planDeviceSchema>;

export const locationPlanSchema = z.object({
  planType: z.string().nullable(),
  placements: z.array(planPlacementSchema),
  /** The location's devices, placed or not (empty until the devices module exists). */
  devices: z.array(planDeviceSchema),
});
export type LocationPlan = z.infer<typeof locationPlanSchema>;

export const planPlacementsInputSchema = z.object({ placements: z.array(planPlacementSchema).max(5000) });

/** Counts of what still refers to a location (the reasons it cannot be deleted). */
export const LOCATION_DEPENDENTS = ['children', 'users', 'agents', 'networkRanges', 'devices', 'dictionaries', 'identityProviders'] as const;
export type LocationDependent = (typeof LOCATION_DEPENDENTS)[number];

/** The locations tree grid: every location in the caller's scope, filtered and sorted in the browser. */
export const locationsList = defineList(locationRefSchema, {
  endpoint: '/user-locations/',
  defaultSort: [{ field: 'name', dir: 'ASC' }],
  columns: ['name'],
  hidden: ['code', 'id'],
});

/** The dictionaries grid (server: dictionaries.list.ts). */
export const dictionariesList = defineList(dictionaryListRowSchema, {
  endpoint: '/dictionaries',
  defaultSort: [{ field: 'code', dir: 'ASC' }],
  columns: ['code', 'name', 'nameRu', 'hierarchical', 'isSystem', 'itemCount'],
  hidden: ['id'],
  unfilterable: ['itemCount'],
});
