import { asc, eq, inArray, sql } from 'drizzle-orm';
import { LOCATION_DICTIONARY, type AttributeValue, type DictionaryAttribute, type DictionaryItem, type DictionaryItemRow, type AttributeValueType } from '@pagewatch/contracts/dictionaries';
import type { Db } from '../../db/client.ts';
import { takenIgnoringCase } from '../../db/taken.ts';
import { locationIn } from '../../db/scope.ts';
import { locations } from '../../db/schema/locations.ts';
import { locationPlans } from '../../db/schema/locations.ts';
import { dictionaries, dictionaryAttributes, dictionaryAttributeValues, dictionaryItems } from '../../db/schema/dictionaries.ts';

export type DictionaryRow = typeof dictionaries.$inferSelect;
export type ItemRow = typeof dictionaryItems.$inferSelect;

/** An item id names a location or a dictionary item (one sequence); this says which. */
export type FoundItem =
  | { kind: 'location'; dictionary: DictionaryRow; row: typeof locations.$inferSelect }
  | { kind: 'item'; dictionary: DictionaryRow; row: ItemRow };

export async function dictionaryById(db: Db, id: number): Promise<DictionaryRow | null> {
  const [d] = await db.select().from(dictionaries).where(eq(dictionaries.id, id));
  return d ?? null;
}

export async function dictionaryByCode(db: Db, code: string): Promise<DictionaryRow | null> {
  const [d] = await db.select().from(dictionaries).where(eq(dictionaries.code, code));
  return d ?? null;
}

export async function findItem(db: Db, id: number): Promise<FoundItem | null> {
  const [loc] = await db.select().from(locations).where(eq(locations.id, id));
  if (loc) {
    const dictionary = await dictionaryByCode(db, 'LOCATION');
    return dictionary ? { kind: 'location', dictionary, row: loc } : null;
  }
  const [item] = await db.select().from(dictionaryItems).where(eq(dictionaryItems.id, id));
  if (!item) return null;
  return { kind: 'item', dictionary: (await dictionaryById(db, item.dictionaryId))!, row: item };
}

export async function attributesOf(db: Db, dictionaryIds: number[]): Promise<DictionaryAttribute[]> {
  if (!dictionaryIds.length) return [];
  const rows = await db
    .select()
    .from(dictionaryAttributes)
    .where(inArray(dictionaryAttributes.dictionaryId, dictionaryIds))
    .orderBy(asc(dictionaryAttributes.code));
  return rows.map((r) => ({ ...r, valueType: r.valueType as AttributeValueType }));
}

export async function attributeById(db: Db, id: number) {
  const [a] = await db.select().from(dictionaryAttributes).where(eq(dictionaryAttributes.id, id));
  return a ?? null;
}

export async function attributeValueCount(db: Db, attributeId: number): Promise<number> {
  const [r] = await db.select({ n: sql<number>`count(*)::int` }).from(dictionaryAttributeValues).where(eq(dictionaryAttributeValues.attributeId, attributeId));
  return Number(r.n);
}

/**
 * A dictionary's item count: LOCATION counts the locations of `scope` (null: all of them), as
 * its items are listed; another, its items.
 */
export async function itemCount(db: Db, code: string, dictionaryId: number, scope: ReadonlySet<number> | null): Promise<number> {
  const [r] =
    code === LOCATION_DICTIONARY
      ? await db.select({ n: sql<number>`count(*)::int` }).from(locations).where(scope ? locationIn(scope, locations.id) : undefined)
      : await db.select({ n: sql<number>`count(*)::int` }).from(dictionaryItems).where(eq(dictionaryItems.dictionaryId, dictionaryId));
  return Number(r.n);
}

export async function itemRowsOf(db: Db, dictionaryId: number): Promise<DictionaryItemRow[]> {
  return db
    .select({ id: dictionaryItems.id, code: dictionaryItems.code, name: dictionaryItems.name, nameRu: dictionaryItems.nameRu, parentId: dictionaryItems.parentId, sortOrder: dictionaryItems.sortOrder })
    .from(dictionaryItems)
    .where(eq(dictionaryItems.dictionaryId, dictionaryId))
    .orderBy(asc(dictionaryItems.sortOrder), asc(dictionaryItems.name));
}

export async function locationRowsIn(db: Db, scope: Set<number>): Promise<DictionaryItemRow[]> {
  if (!scope.size) return [];
  return db
    .select({ id: locations.id, code: locations.code, name: locations.name, nameRu: sql<string | null>`NULL`, parentId: locations.parentId, sortOrder: locations.sortOrder })
    .from(locations)
    .where(locationIn(scope, locations.id))
    .orderBy(asc(locations.sortOrder), asc(locations.name));
}

/** The item and its ancestors' ids are below `rootId`'s subtree? True when `candidate` is `rootId` or under it. */
export async function isInSubtree(db: Db, table: 'locations' | 'dictionary_items', rootId: number, candidate: number): Promise<boolean> {
  const res = await db.execute(sql`
    WITH RECURSIVE tree AS (
      SELECT id FROM ${sql.identifier(table)} WHERE id = ${rootId}
      UNION
      SELECT c.id FROM ${sql.identifier(table)} c JOIN tree t ON c.parent_id = t.id
    )
    SELECT 1 AS hit FROM tree WHERE id = ${candidate} LIMIT 1`);
  return res.rows.length > 0;
}

export async function itemView(db: Db, found: FoundItem): Promise<DictionaryItem> {
  if (found.kind === 'location') {
    const l = found.row;
    const [parent] = l.parentId ? await db.select().from(locations).where(eq(locations.id, l.parentId)) : [];
    const [plan] = await db.select({ contentType: locationPlans.contentType }).from(locationPlans).where(eq(locationPlans.locationId, l.id));
    return {
      id: l.id,
      dictionaryId: found.dictionary.id,
      dictionaryCode: found.dictionary.code,
      code: l.code,
      name: l.name,
      nameRu: null,
      parentId: l.parentId,
      parent: parent ? { id: parent.id, code: parent.code, name: parent.name } : null,
      sortOrder: l.sortOrder,
      description: l.description,
      location: {
        addressIndex: l.addressIndex,
        city: l.city,
        street: l.street,
        house: l.house,
        floor: l.floor,
        room: l.room,
        contactName: l.contactName,
        contactPosition: l.contactPosition,
        contactPhones: l.contactPhones,
        planType: plan?.contentType ?? null,
      },
    };
  }
  const i = found.row;
  const [parent] = i.parentId ? await db.select().from(dictionaryItems).where(eq(dictionaryItems.id, i.parentId)) : [];
  return {
    id: i.id,
    dictionaryId: i.dictionaryId,
    dictionaryCode: found.dictionary.code,
    code: i.code,
    name: i.name,
    nameRu: i.nameRu,
    parentId: i.parentId,
    parent: parent ? { id: parent.id, code: parent.code, name: parent.name } : null,
    sortOrder: i.sortOrder,
    description: i.description,
    location: null,
  };
}

export async function valuesOfItem(db: Db, itemId: number): Promise<AttributeValue[]> {
  const rows = await db
    .select()
    .from(dictionaryAttributeValues)
    .where(eq(dictionaryAttributeValues.itemId, itemId))
    .orderBy(asc(dictionaryAttributeValues.attributeId), sql`${dictionaryAttributeValues.validFrom} DESC NULLS LAST`);
  return rows.map((r) => ({ ...r, numericValue: r.numericValue === null ? null : Number(r.numericValue) }));
}

export async function valueById(db: Db, id: number) {
  const [v] = await db.select().from(dictionaryAttributeValues).where(eq(dictionaryAttributeValues.id, id));
  return v ?? null;
}

export async function deleteValuesOfItem(db: Db, itemId: number) {
  await db.delete(dictionaryAttributeValues).where(eq(dictionaryAttributeValues.itemId, itemId));
}

export function itemCodeTaken(db: Db, dictionaryId: number, code: string, exceptId: number | null) {
  return takenIgnoringCase(db, dictionaryItems.code, dictionaryItems.id, code, exceptId, eq(dictionaryItems.dictionaryId, dictionaryId));
}

export async function childCount(db: Db, itemId: number): Promise<number> {
  const [r] = await db.select({ n: sql<number>`count(*)::int` }).from(dictionaryItems).where(eq(dictionaryItems.parentId, itemId));
  return Number(r.n);
}

// ---- writes ----

type Insert<T extends { $inferInsert: unknown }> = Omit<T['$inferInsert'], 'id'>;

export function dictionaryCodeTaken(db: Db, code: string, exceptId: number | null): Promise<boolean> {
  return takenIgnoringCase(db, dictionaries.code, dictionaries.id, code, exceptId);
}

export async function insertDictionary(db: Db, values: Insert<typeof dictionaries>): Promise<DictionaryRow> {
  const [d] = await db.insert(dictionaries).values(values).returning();
  return d;
}

export async function updateDictionary(db: Db, id: number, set: Partial<Insert<typeof dictionaries>>) {
  await db.update(dictionaries).set(set).where(eq(dictionaries.id, id));
}

/** Makes every item of the dictionary top-level (a dictionary that stops being a tree). */
export async function flattenItems(db: Db, dictionaryId: number) {
  await db.update(dictionaryItems).set({ parentId: null }).where(eq(dictionaryItems.dictionaryId, dictionaryId));
}

/** The dictionary with its items, attributes and values. */
export async function deleteDictionary(db: Db, id: number) {
  await db.execute(sql`DELETE FROM dictionary_attribute_values WHERE item_id IN (SELECT id FROM dictionary_items WHERE dictionary_id = ${id})`);
  // Items refer to their parents: clear the links before the cascade removes them.
  await flattenItems(db, id);
  await db.delete(dictionaries).where(eq(dictionaries.id, id));
}

export function attributeCodeTaken(db: Db, dictionaryId: number, code: string, exceptId: number | null): Promise<boolean> {
  return takenIgnoringCase(db, dictionaryAttributes.code, dictionaryAttributes.id, code, exceptId, eq(dictionaryAttributes.dictionaryId, dictionaryId));
}

export async function insertAttribute(db: Db, values: Insert<typeof dictionaryAttributes>) {
  const [a] = await db.insert(dictionaryAttributes).values(values).returning();
  return a;
}

export async function updateAttribute(db: Db, id: number, set: Partial<Insert<typeof dictionaryAttributes>>) {
  const [a] = await db.update(dictionaryAttributes).set(set).where(eq(dictionaryAttributes.id, id)).returning();
  return a;
}

/** For an attribute no longer versioned: each item keeps its latest value, valid from no date. */
export async function keepLatestValues(db: Db, attributeId: number) {
  await db.execute(sql`
    DELETE FROM dictionary_attribute_values v WHERE v.attribute_id = ${attributeId}
      AND EXISTS (SELECT 1 FROM dictionary_attribute_values w WHERE w.attribute_id = v.attribute_id AND w.item_id = v.item_id
                  AND (w.valid_from > v.valid_from OR (w.valid_from = v.valid_from AND w.id > v.id)))`);
  await db.update(dictionaryAttributeValues).set({ validFrom: null }).where(eq(dictionaryAttributeValues.attributeId, attributeId));
}

export async function deleteAttribute(db: Db, id: number) {
  await db.delete(dictionaryAttributes).where(eq(dictionaryAttributes.id, id));
}

export async function itemById(db: Db, id: number): Promise<ItemRow | null> {
  const [item] = await db.select().from(dictionaryItems).where(eq(dictionaryItems.id, id));
  return item ?? null;
}

export async function insertItem(db: Db, values: Insert<typeof dictionaryItems>): Promise<{ id: number }> {
  const [row] = await db.insert(dictionaryItems).values(values).returning({ id: dictionaryItems.id });
  return row;
}

export async function updateItem(db: Db, id: number, set: Partial<Insert<typeof dictionaryItems>>) {
  await db.update(dictionaryItems).set(set).where(eq(dictionaryItems.id, id));
}

export async function deleteItem(db: Db, id: number) {
  await db.delete(dictionaryItems).where(eq(dictionaryItems.id, id));
}

/** Stores a value, replacing the one of the same attribute, item and start date. */
export async function setValue(db: Db, value: Insert<typeof dictionaryAttributeValues>) {
  const { stringValue, numericValue, dateValue, flagValue } = value;
  await db
    .insert(dictionaryAttributeValues)
    .values(value)
    .onConflictDoUpdate({
      target: [dictionaryAttributeValues.attributeId, dictionaryAttributeValues.itemId, dictionaryAttributeValues.validFrom],
      set: { stringValue, numericValue, dateValue, flagValue },
    });
}

export async function deleteValue(db: Db, id: number) {
  await db.delete(dictionaryAttributeValues).where(eq(dictionaryAttributeValues.id, id));
}
