import { sql } from 'drizzle-orm';
import { boolean, char, check, date, index, integer, numeric, pgTable, serial, text, unique, varchar, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { codedColumns } from '../columns.ts';
import { locations } from './locations.ts';

/**
 * Dictionaries other than LOCATION keep their items here; LOCATION keeps them in `locations`.
 * Both draw ids from `locations_id_seq`, so an item id names exactly one item of either table
 * and `PUT /api/dictionary-items/{id}` never has to guess.
 */
export const ITEM_ID_SEQUENCE = 'locations_id_seq';

export const dictionaries = pgTable(
  'dictionaries',
  {
    ...codedColumns(),
    nameRu: varchar('name_ru', { length: 250 }),
    hierarchical: boolean('hierarchical').notNull().default(false),
    /**
     * Seeded dictionaries: other modules refer to their codes, so they cannot be deleted or
     * recoded; they are every customer's, and only the default administrator changes them.
     */
    isSystem: boolean('is_system').notNull().default(false),
    /** The owner of any other dictionary: its items and values are that location's scope's. */
    locationId: integer('location_id').references(() => locations.id),
  },
  (t) => [check('dictionaries_owner', sql`${t.isSystem} = (${t.locationId} IS NULL)`), index('dictionaries_location').on(t.locationId)],
);

export const dictionaryItems = pgTable(
  'dictionary_items',
  {
    id: integer('id').primaryKey().default(sql`nextval('locations_id_seq')`),
    dictionaryId: integer('dictionary_id').notNull().references(() => dictionaries.id, { onDelete: 'cascade' }),
    code: varchar('code', { length: 50 }).notNull(),
    name: varchar('name', { length: 250 }).notNull(),
    nameRu: varchar('name_ru', { length: 250 }),
    parentId: integer('parent_id').references((): AnyPgColumn => dictionaryItems.id),
    sortOrder: integer('sort_order').notNull().default(0),
    description: text('description'),
  },
  (t) => [unique('dictionary_items_code').on(t.dictionaryId, t.code), index('dictionary_items_parent').on(t.parentId)],
);

export const dictionaryAttributes = pgTable(
  'dictionary_attributes',
  {
    id: serial('id').primaryKey(),
    dictionaryId: integer('dictionary_id').notNull().references(() => dictionaries.id, { onDelete: 'cascade' }),
    code: varchar('code', { length: 50 }).notNull(),
    name: varchar('name', { length: 250 }).notNull(),
    /** S string, N numeric, D date, F flag (as settings). */
    valueType: char('value_type', { length: 1 }).notNull(),
    /** A versioned attribute keeps every value with the date it became valid. */
    versioned: boolean('versioned').notNull().default(false),
  },
  (t) => [unique('dictionary_attributes_code').on(t.dictionaryId, t.code)],
);

/** `item_id` is a location or a dictionary item (one id space), so it has no foreign key. */
export const dictionaryAttributeValues = pgTable(
  'dictionary_attribute_values',
  {
    id: serial('id').primaryKey(),
    attributeId: integer('attribute_id').notNull().references(() => dictionaryAttributes.id, { onDelete: 'cascade' }),
    itemId: integer('item_id').notNull(),
    /** Null for an attribute that is not versioned (one value per item). */
    validFrom: date('valid_from', { mode: 'string' }),
    stringValue: text('string_value'),
    numericValue: numeric('numeric_value', { mode: 'number' }),
    dateValue: date('date_value', { mode: 'string' }),
    flagValue: boolean('flag_value'),
  },
  (t) => [
    unique('dictionary_attribute_values_key').on(t.attributeId, t.itemId, t.validFrom).nullsNotDistinct(),
    index('dictionary_attribute_values_item').on(t.itemId),
  ],
);
