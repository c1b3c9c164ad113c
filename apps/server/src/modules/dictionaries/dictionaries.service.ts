import { and, eq, sql } from 'drizzle-orm';
import {
  LOCATION_DICTIONARY,
  type AttributeValueInput,
  type AttributeValueType,
  type Dictionary,
  type DictionaryAttributeInput,
  type DictionaryInput,
  type DictionaryItemInput,
  type DictionaryItemPatch,
} from '@pagewatch/contracts/dictionaries';
import type { ListQuery } from '@pagewatch/contracts/list';
import type { Db } from '../../db/client.ts';
import { AppError, conflict, forbidden, invalid, notFound } from '../../lib/app-error.ts';
import { runList } from '../../lib/list-run.ts';
import type { Caller } from '../auth/caller.ts';
import type { LocationsService } from '../locations/locations.service.ts';
import { dictionariesListSql } from './dictionaries.list.ts';
import * as repo from './dictionaries.repository.ts';
import { dictionaries, dictionaryAttributes, dictionaryAttributeValues, dictionaryItems } from './dictionaries.tables.ts';
import { isUniqueViolation, type DictionaryEvents } from './dictionary-events.ts';
import './dictionaries.messages.ts';
import { part } from '../event-logs/event-logs.messages.ts';

const EDIT = 'MNU_DICTIONARIES.EDIT';
const asDb = (tx: unknown) => tx as Db;
const codeConflict = (key: string) => new AppError('CONFLICT', { fields: [{ field: 'code', key }] });

/** The value column an attribute of each type uses. */
const VALUE_FIELD: Record<AttributeValueType, 'stringValue' | 'numericValue' | 'dateValue' | 'flagValue'> = {
  S: 'stringValue',
  N: 'numericValue',
  D: 'dateValue',
  F: 'flagValue',
};

/**
 * Dictionaries, their attributes, items and attribute values. Items of LOCATION are handed to
 * the locations service (their table, grant and scope); the rest need MNU_DICTIONARIES.EDIT.
 */
export class DictionariesService {
  private readonly db: Db;
  private readonly events: DictionaryEvents;
  private readonly locations: LocationsService;
  constructor(db: Db, events: DictionaryEvents, locations: LocationsService) {
    this.db = db;
    this.events = events;
    this.locations = locations;
  }

  private requireEdit(caller: Caller) {
    if (!caller.grants.has(EDIT)) throw forbidden();
  }

  // ---- dictionaries ----

  list(q: ListQuery) {
    return runList(this.db, dictionariesListSql, q);
  }

  async get(id: number): Promise<Dictionary> {
    const d = await repo.dictionaryById(this.db, id);
    if (!d) throw notFound();
    const counts = await repo.itemCounts(this.db);
    return { ...d, itemCount: counts.get(d.id) ?? 0, attributes: await repo.attributesOf(this.db, [d.id]) };
  }

  private async dictionaryCodeTaken(code: string, exceptId: number | null) {
    const [r] = await this.db.select({ id: dictionaries.id }).from(dictionaries).where(sql`lower(${dictionaries.code}) = lower(${code})`);
    return !!r && r.id !== exceptId;
  }

  async create(caller: Caller, input: DictionaryInput) {
    this.requireEdit(caller);
    if (await this.dictionaryCodeTaken(input.code, null)) throw codeConflict('dictionary.codeTaken');
    const id = await this.db.transaction(async (tx) => {
      const [d] = await tx.insert(dictionaries).values({ code: input.code, name: input.name, nameRu: input.nameRu || null, hierarchical: input.hierarchical }).returning();
      await this.events.write(caller, { dictionary: d.code, messageCode: 'dictionary.created', params: { dictionary: d.code }, objectId: d.id }, asDb(tx));
      return d.id;
    }).catch((err) => {
      throw isUniqueViolation(err) ? codeConflict('dictionary.codeTaken') : err;
    });
    this.events.publish(input.code);
    return this.get(id);
  }

  async update(caller: Caller, id: number, input: DictionaryInput) {
    this.requireEdit(caller);
    const d = await repo.dictionaryById(this.db, id);
    if (!d) throw notFound();
    if (d.isSystem && input.code !== d.code) throw new AppError('UNPROCESSABLE', { fields: [{ field: 'code', key: 'dictionary.system' }] });
    if (await this.dictionaryCodeTaken(input.code, id)) throw codeConflict('dictionary.codeTaken');
    // Whether LOCATION is a tree is not the user's choice: the locations are one.
    const hierarchical = d.code === LOCATION_DICTIONARY ? true : input.hierarchical;
    await this.db.transaction(async (tx) => {
      await tx.update(dictionaries).set({ code: input.code, name: input.name, nameRu: input.nameRu || null, hierarchical }).where(eq(dictionaries.id, id));
      if (!hierarchical) await tx.update(dictionaryItems).set({ parentId: null }).where(eq(dictionaryItems.dictionaryId, id));
      await this.events.write(caller, { dictionary: input.code, messageCode: 'dictionary.updated', params: { dictionary: input.code }, objectId: id }, asDb(tx));
    }).catch((err) => {
      throw isUniqueViolation(err) ? codeConflict('dictionary.codeTaken') : err;
    });
    this.events.publish(input.code);
    if (input.code !== d.code) this.events.publish(d.code);
    return this.get(id);
  }

  async remove(caller: Caller, id: number) {
    this.requireEdit(caller);
    const d = await repo.dictionaryById(this.db, id);
    if (!d) throw notFound();
    if (d.isSystem) throw conflict('dictionary.system');
    await this.db.transaction(async (tx) => {
      await tx.execute(sql`DELETE FROM dictionary_attribute_values WHERE item_id IN (SELECT id FROM dictionary_items WHERE dictionary_id = ${id})`);
      // Items refer to their parents: clear the links before the cascade removes them.
      await tx.update(dictionaryItems).set({ parentId: null }).where(eq(dictionaryItems.dictionaryId, id));
      await tx.delete(dictionaries).where(eq(dictionaries.id, id));
      await this.events.write(caller, { dictionary: d.code, messageCode: 'dictionary.deleted', params: { dictionary: d.code }, objectId: id }, asDb(tx));
    });
    this.events.publish(d.code);
  }

  // ---- attributes ----

  private async attributeCodeTaken(dictionaryId: number, code: string, exceptId: number | null) {
    const [r] = await this.db
      .select({ id: dictionaryAttributes.id })
      .from(dictionaryAttributes)
      .where(and(eq(dictionaryAttributes.dictionaryId, dictionaryId), sql`lower(${dictionaryAttributes.code}) = lower(${code})`));
    return !!r && r.id !== exceptId;
  }

  async createAttribute(caller: Caller, dictionaryId: number, input: DictionaryAttributeInput) {
    const d = await repo.dictionaryById(this.db, dictionaryId);
    if (!d) throw notFound();
    this.requireEdit(caller);
    if (await this.attributeCodeTaken(dictionaryId, input.code, null)) throw codeConflict('dictionary.attributeCodeTaken');
    const [a] = await this.db.transaction(async (tx) => {
      const rows = await tx.insert(dictionaryAttributes).values({ dictionaryId, ...input }).returning();
      await this.events.write(caller, { dictionary: d.code, messageCode: 'dictionary.attributeCreated', params: { attribute: input.code, dictionary: d.code }, objectId: rows[0].id }, asDb(tx));
      return rows;
    });
    this.events.publish(d.code);
    return { ...a, valueType: a.valueType as AttributeValueType };
  }

  async updateAttribute(caller: Caller, dictionaryId: number, attributeId: number, input: DictionaryAttributeInput) {
    const d = await repo.dictionaryById(this.db, dictionaryId);
    const a = await repo.attributeById(this.db, attributeId);
    if (!d || !a || a.dictionaryId !== dictionaryId) throw notFound();
    this.requireEdit(caller);
    if (await this.attributeCodeTaken(dictionaryId, input.code, attributeId)) throw codeConflict('dictionary.attributeCodeTaken');
    if (input.valueType !== a.valueType && (await repo.attributeValueCount(this.db, attributeId)) > 0) {
      throw new AppError('UNPROCESSABLE', { fields: [{ field: 'valueType', key: 'dictionary.attributeTypeLocked' }] });
    }
    const [row] = await this.db.transaction(async (tx) => {
      const rows = await tx.update(dictionaryAttributes).set(input).where(eq(dictionaryAttributes.id, attributeId)).returning();
      // An attribute that stops being versioned keeps only its latest value.
      if (a.versioned && !input.versioned) {
        await tx.execute(sql`
          DELETE FROM dictionary_attribute_values v WHERE v.attribute_id = ${attributeId}
            AND EXISTS (SELECT 1 FROM dictionary_attribute_values w WHERE w.attribute_id = v.attribute_id AND w.item_id = v.item_id
                        AND (w.valid_from > v.valid_from OR (w.valid_from = v.valid_from AND w.id > v.id)))`);
        await tx.update(dictionaryAttributeValues).set({ validFrom: null }).where(eq(dictionaryAttributeValues.attributeId, attributeId));
      }
      await this.events.write(caller, { dictionary: d.code, messageCode: 'dictionary.attributeUpdated', params: { attribute: input.code, dictionary: d.code }, objectId: attributeId }, asDb(tx));
      return rows;
    });
    this.events.publish(d.code);
    return { ...row, valueType: row.valueType as AttributeValueType };
  }

  async removeAttribute(caller: Caller, dictionaryId: number, attributeId: number) {
    const d = await repo.dictionaryById(this.db, dictionaryId);
    const a = await repo.attributeById(this.db, attributeId);
    if (!d || !a || a.dictionaryId !== dictionaryId) throw notFound();
    this.requireEdit(caller);
    await this.db.transaction(async (tx) => {
      await tx.delete(dictionaryAttributes).where(eq(dictionaryAttributes.id, attributeId));
      await this.events.write(caller, { dictionary: d.code, messageCode: 'dictionary.attributeDeleted', params: { attribute: a.code, dictionary: d.code }, objectId: attributeId }, asDb(tx));
    });
    this.events.publish(d.code);
  }

  // ---- items ----

  /** Items of a dictionary for its screen and for lookups; locations only within the caller's scope. */
  async items(caller: Caller, d: repo.DictionaryRow) {
    const rows = d.code === LOCATION_DICTIONARY ? await repo.locationRowsIn(this.db, caller.scope) : await repo.itemRowsOf(this.db, d.id);
    return { pageRows: rows, totalRows: rows.length };
  }

  async itemsOf(caller: Caller, dictionaryId: number) {
    const d = await repo.dictionaryById(this.db, dictionaryId);
    if (!d) throw notFound();
    return this.items(caller, d);
  }

  async lookup(caller: Caller, code: string) {
    const d = await repo.dictionaryByCode(this.db, code);
    if (!d) throw notFound();
    return this.items(caller, d);
  }

  private async found(caller: Caller, id: number) {
    const f = await repo.findItem(this.db, id);
    if (!f) throw notFound();
    if (f.kind === 'location' && !caller.scope.has(id)) throw new AppError('OUT_OF_SCOPE');
    return f;
  }

  async getItem(caller: Caller, id: number) {
    return repo.itemView(this.db, await this.found(caller, id));
  }

  private async checkItemParent(d: repo.DictionaryRow, id: number | null, parentId: number | null, db: Db) {
    if (parentId === null) return;
    if (!d.hierarchical) throw invalid('parentId', 'dictionary.notHierarchical');
    const [parent] = await db.select().from(dictionaryItems).where(eq(dictionaryItems.id, parentId));
    if (!parent || parent.dictionaryId !== d.id) throw invalid('parentId', 'dictionary.parentNotInDictionary');
    if (id !== null && (await repo.isInSubtree(db, 'dictionary_items', id, parentId))) throw new AppError('UNPROCESSABLE', { key: 'dictionary.cycle' });
  }

  async createItem(caller: Caller, input: DictionaryItemInput) {
    const d = await repo.dictionaryById(this.db, input.dictionaryId);
    if (!d) throw invalid('dictionaryId', 'general.badValue');
    if (d.code === LOCATION_DICTIONARY) return this.locations.create(caller, input);
    this.requireEdit(caller);
    await this.checkItemParent(d, null, input.parentId ?? null, this.db);
    if (await repo.itemCodeTaken(this.db, d.id, input.code, null)) throw codeConflict('dictionary.itemCodeTaken');
    const id = await this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(dictionaryItems)
        .values({ dictionaryId: d.id, code: input.code, name: input.name, nameRu: input.nameRu || null, parentId: input.parentId ?? null, sortOrder: input.sortOrder, description: input.description || null })
        .returning({ id: dictionaryItems.id });
      await this.events.write(caller, { dictionary: d.code, messageCode: 'dictionary.itemCreated', params: { item: input.code, dictionary: d.code }, objectId: row.id }, asDb(tx));
      return row.id;
    }).catch((err) => {
      throw isUniqueViolation(err) ? codeConflict('dictionary.itemCodeTaken') : err;
    });
    this.events.publish(d.code);
    return this.getItem(caller, id);
  }

  async updateItem(caller: Caller, id: number, patch: DictionaryItemPatch) {
    const f = await this.found(caller, id);
    if (f.kind === 'location') return this.locations.update(caller, id, patch);
    this.requireEdit(caller);
    const d = f.dictionary;
    if (patch.code !== undefined && (await repo.itemCodeTaken(this.db, d.id, patch.code, id))) throw codeConflict('dictionary.itemCodeTaken');
    const moving = patch.parentId !== undefined && (patch.parentId ?? null) !== f.row.parentId;
    await this.db.transaction(async (tx) => {
      if (moving) {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('pagewatch.dictionary_items.tree'))`);
        await this.checkItemParent(d, id, patch.parentId ?? null, asDb(tx));
      }
      await tx
        .update(dictionaryItems)
        .set({
          ...(patch.code !== undefined ? { code: patch.code } : {}),
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(patch.nameRu !== undefined ? { nameRu: patch.nameRu || null } : {}),
          ...(moving ? { parentId: patch.parentId ?? null } : {}),
          ...(patch.sortOrder !== undefined ? { sortOrder: patch.sortOrder } : {}),
          ...(patch.description !== undefined ? { description: patch.description || null } : {}),
        })
        .where(eq(dictionaryItems.id, id));
      await this.events.write(caller, { dictionary: d.code, messageCode: 'dictionary.itemUpdated', params: { item: patch.code ?? f.row.code, dictionary: d.code }, objectId: id }, asDb(tx));
    }).catch((err) => {
      throw isUniqueViolation(err) ? codeConflict('dictionary.itemCodeTaken') : err;
    });
    this.events.publish(d.code);
    return this.getItem(caller, id);
  }

  async removeItem(caller: Caller, id: number) {
    const f = await this.found(caller, id);
    if (f.kind === 'location') return this.locations.remove(caller, id);
    this.requireEdit(caller);
    const children = await repo.childCount(this.db, id);
    if (children) throw conflict('dictionary.hasChildren', { count: children });
    await this.db.transaction(async (tx) => {
      await repo.deleteValuesOfItem(asDb(tx), id);
      await tx.delete(dictionaryItems).where(eq(dictionaryItems.id, id));
      await this.events.write(caller, { dictionary: f.dictionary.code, messageCode: 'dictionary.itemDeleted', params: { item: f.row.code, dictionary: f.dictionary.code }, objectId: id }, asDb(tx));
    });
    this.events.publish(f.dictionary.code);
  }

  // ---- attribute values ----

  async values(caller: Caller, itemId: number) {
    await this.found(caller, itemId);
    const rows = await repo.valuesOfItem(this.db, itemId);
    return { pageRows: rows, totalRows: rows.length };
  }

  private async editableItem(caller: Caller, itemId: number) {
    const f = await this.found(caller, itemId);
    if (f.kind === 'location') {
      if (!caller.grants.has('PAGE_LOCATION.EDIT')) throw forbidden();
    } else this.requireEdit(caller);
    return f;
  }

  /** Sets a value: a versioned attribute gets (or replaces) the value valid from that date; others their one value. */
  async setValue(caller: Caller, itemId: number, input: AttributeValueInput) {
    const f = await this.editableItem(caller, itemId);
    const a = await repo.attributeById(this.db, input.attributeId);
    if (!a || a.dictionaryId !== f.dictionary.id) throw invalid('attributeId', 'dictionary.attributeNotInDictionary');
    const field = VALUE_FIELD[a.valueType as AttributeValueType];
    const value = input[field];
    if (value === undefined || value === null || value === '') throw invalid(field, 'dictionary.valueRequired');
    if (a.versioned && !input.validFrom) throw invalid('validFrom', 'dictionary.validFromRequired');
    const validFrom = a.versioned ? input.validFrom! : null;
    const values = { stringValue: null, numericValue: null, dateValue: null, flagValue: null, [field]: value };
    await this.db.transaction(async (tx) => {
      await tx
        .insert(dictionaryAttributeValues)
        .values({ attributeId: a.id, itemId, validFrom, ...values })
        .onConflictDoUpdate({ target: [dictionaryAttributeValues.attributeId, dictionaryAttributeValues.itemId, dictionaryAttributeValues.validFrom], set: values });
      await this.events.write(caller, { dictionary: f.dictionary.code, messageCode: 'dictionary.valueSet', params: { attribute: a.code, item: f.row.code, from: validFrom ? part('from', { date: validFrom }) : '' }, objectId: itemId, locationId: f.kind === 'location' ? itemId : null }, asDb(tx));
    });
    this.events.publish(f.dictionary.code);
    return this.values(caller, itemId);
  }

  async removeValue(caller: Caller, itemId: number, valueId: number) {
    const f = await this.editableItem(caller, itemId);
    const v = await repo.valueById(this.db, valueId);
    if (!v || v.itemId !== itemId) throw notFound();
    await this.db.transaction(async (tx) => {
      await tx.delete(dictionaryAttributeValues).where(eq(dictionaryAttributeValues.id, valueId));
      await this.events.write(caller, { dictionary: f.dictionary.code, messageCode: 'dictionary.valueDeleted', params: { item: f.row.code }, objectId: itemId, locationId: f.kind === 'location' ? itemId : null }, asDb(tx));
    });
    this.events.publish(f.dictionary.code);
  }
}
