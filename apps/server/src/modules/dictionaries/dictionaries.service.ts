import {
  LOCATION_DICTIONARY,
  type AttributeValueInput,
  type AttributeValueType,
  type Dictionary,
  type DictionaryAttributeInput,
  type DictionaryInput,
  type DictionaryItemInput,
  type DictionaryItemPatch,
  type DictionaryListRow,
} from '@pagewatch/contracts/dictionaries';
import type { ListQuery } from '@pagewatch/contracts/list';
import type { Db } from '../../db/client.ts';
import { AppError, conflict, forbidden, invalid, notFound } from '../../lib/app-error.ts';
import { runList } from '../../lib/list-run.ts';
import { inScope, type Caller } from '../../lib/caller.ts';
import { dictionariesListSql } from './dictionaries.list.ts';
import * as repo from './dictionaries.repository.ts';
import { lockTree } from '../../db/tree-lock.ts';
import { DictionaryDomainService, isUniqueViolation, type DictionaryEvents, type LocationItems } from './dictionary-events.ts';
import './dictionaries.messages.ts';
import { part } from '../event-logs/index.ts';

const EDIT = 'MNU_DICTIONARIES.EDIT';
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
 *
 * Whose a dictionary is: a system one is everyone's to read and the default administrator's
 * alone to change (its attributes too: LOCATION's hold every customer's values); any other
 * belongs to a location, and only callers with that location in their scope read or change it,
 * its items and their values.
 */
export class DictionariesService extends DictionaryDomainService {
  private readonly locations: LocationItems;
  constructor(db: Db, events: DictionaryEvents, locations: LocationItems) {
    super(db, events);
    this.locations = locations;
  }

  private requireEdit(caller: Caller) {
    if (!caller.grants.has(EDIT)) throw forbidden();
  }

  /** A system dictionary is everyone's to read; any other, its owner's scope's. */
  private readable(caller: Caller, d: repo.DictionaryRow) {
    if (!d.isSystem && !inScope(caller, d.locationId)) throw new AppError('OUT_OF_SCOPE', { key: 'dictionary.outOfScope' });
  }

  /** To change a dictionary, its attributes, items or values: the grant, and the dictionary's owner (see the class). */
  private changeable(caller: Caller, d: repo.DictionaryRow) {
    this.requireEdit(caller);
    if (d.isSystem && !caller.defaultAdmin) throw forbidden('dictionary.systemDefaultAdminOnly');
    this.readable(caller, d);
  }

  private async dictionary(id: number) {
    const d = await repo.dictionaryById(this.db, id);
    if (!d) throw notFound();
    return d;
  }

  /** The owner a dictionary is given: an existing location in the caller's scope. */
  private async checkOwner(caller: Caller, locationId: number | undefined) {
    if (locationId === undefined) throw invalid('location', 'general.mandatory');
    if (!(await this.locations.ref(locationId))) throw invalid('location', 'general.badValue');
    if (!inScope(caller, locationId)) throw new AppError('OUT_OF_SCOPE', { key: 'dictionary.ownerOutOfScope' });
  }

  // ---- dictionaries ----

  /** The system dictionaries and those of the caller's scope; LOCATION counts the caller's locations. */
  async list(caller: Caller, q: ListQuery) {
    const page = await runList<DictionaryListRow>(this.db, dictionariesListSql, q, caller);
    if (caller.allLocations) return page;
    const locations = await repo.itemCount(this.db, LOCATION_DICTIONARY, 0, caller.scope);
    return { ...page, pageRows: page.pageRows.map((r) => (r.code === LOCATION_DICTIONARY ? { ...r, itemCount: locations } : r)) };
  }

  async get(caller: Caller, id: number): Promise<Dictionary> {
    const d = await this.dictionary(id);
    this.readable(caller, d);
    const { locationId, ...rest } = d;
    return {
      ...rest,
      location: locationId === null ? null : await this.locations.ref(locationId),
      itemCount: await repo.itemCount(this.db, d.code, d.id, caller.allLocations ? null : caller.scope),
      attributes: await repo.attributesOf(this.db, [d.id]),
    };
  }

  async getByCode(caller: Caller, code: string) {
    const d = await repo.dictionaryByCode(this.db, code);
    if (!d) throw notFound();
    return this.get(caller, d.id);
  }

  async create(caller: Caller, input: DictionaryInput) {
    this.requireEdit(caller);
    const locationId = input.location?.id ?? caller.locationIds[0];
    await this.checkOwner(caller, locationId);
    if (await repo.dictionaryCodeTaken(this.db, input.code, null)) throw codeConflict('dictionary.codeTaken');
    const id = await this.db.transaction(async (tx) => {
      const d = await repo.insertDictionary(tx, { code: input.code, name: input.name, nameRu: input.nameRu || null, hierarchical: input.hierarchical, locationId });
      await this.events.write(caller, { dictionary: d.code, messageCode: 'dictionary.created', params: { dictionary: d.code }, objectId: d.id, locationId }, tx);
      return d.id;
    }).catch((err) => {
      throw isUniqueViolation(err) ? codeConflict('dictionary.codeTaken') : err;
    });
    this.events.publish(input.code, locationId);
    return this.get(caller, id);
  }

  /** A system dictionary keeps its code and has no owner; another may move to a location of the caller's scope. */
  async update(caller: Caller, id: number, input: DictionaryInput) {
    const d = await this.dictionary(id);
    this.changeable(caller, d);
    if (d.isSystem && input.code !== d.code) throw new AppError('UNPROCESSABLE', { fields: [{ field: 'code', key: 'dictionary.system' }] });
    const locationId = d.isSystem ? null : (input.location?.id ?? d.locationId);
    if (locationId !== d.locationId) await this.checkOwner(caller, locationId ?? undefined);
    if (await repo.dictionaryCodeTaken(this.db, input.code, id)) throw codeConflict('dictionary.codeTaken');
    // Whether LOCATION is a tree is not the user's choice: the locations are one.
    const hierarchical = d.code === LOCATION_DICTIONARY ? true : input.hierarchical;
    await this.db.transaction(async (tx) => {
      await repo.updateDictionary(tx, id, { code: input.code, name: input.name, nameRu: input.nameRu || null, hierarchical, locationId });
      if (!hierarchical) await repo.flattenItems(tx, id);
      await this.events.write(caller, { dictionary: input.code, messageCode: 'dictionary.updated', params: { dictionary: input.code }, objectId: id, locationId }, tx);
    }).catch((err) => {
      throw isUniqueViolation(err) ? codeConflict('dictionary.codeTaken') : err;
    });
    this.events.publish(input.code, locationId);
    if (input.code !== d.code) this.events.publish(d.code, d.locationId);
    return this.get(caller, id);
  }

  /** With its items and their values: all of them the owner's (an attribute's values are of its dictionary's items). */
  async remove(caller: Caller, id: number) {
    const d = await this.dictionary(id);
    this.changeable(caller, d);
    if (d.isSystem) throw conflict('dictionary.system');
    await this.db.transaction(async (tx) => {
      await repo.deleteDictionary(tx, id);
      await this.events.write(caller, { dictionary: d.code, messageCode: 'dictionary.deleted', params: { dictionary: d.code }, objectId: id, locationId: d.locationId }, tx);
    });
    this.events.publish(d.code, d.locationId);
  }

  // ---- attributes ----

  async createAttribute(caller: Caller, dictionaryId: number, input: DictionaryAttributeInput) {
    const d = await this.dictionary(dictionaryId);
    this.changeable(caller, d);
    if (await repo.attributeCodeTaken(this.db, dictionaryId, input.code, null)) throw codeConflict('dictionary.attributeCodeTaken');
    const a = await this.db.transaction(async (tx) => {
      const row = await repo.insertAttribute(tx, { dictionaryId, ...input });
      await this.events.write(caller, { dictionary: d.code, messageCode: 'dictionary.attributeCreated', params: { attribute: input.code, dictionary: d.code }, objectId: row.id, locationId: d.locationId }, tx);
      return row;
    });
    this.events.publish(d.code, d.locationId);
    return { ...a, valueType: a.valueType as AttributeValueType };
  }

  async updateAttribute(caller: Caller, dictionaryId: number, attributeId: number, input: DictionaryAttributeInput) {
    const d = await repo.dictionaryById(this.db, dictionaryId);
    const a = await repo.attributeById(this.db, attributeId);
    if (!d || !a || a.dictionaryId !== dictionaryId) throw notFound();
    this.changeable(caller, d);
    if (await repo.attributeCodeTaken(this.db, dictionaryId, input.code, attributeId)) throw codeConflict('dictionary.attributeCodeTaken');
    if (input.valueType !== a.valueType && (await repo.attributeValueCount(this.db, attributeId)) > 0) {
      throw new AppError('UNPROCESSABLE', { fields: [{ field: 'valueType', key: 'dictionary.attributeTypeLocked' }] });
    }
    const row = await this.db.transaction(async (tx) => {
      const updated = await repo.updateAttribute(tx, attributeId, input);
      // An attribute that stops being versioned keeps only its latest value.
      if (a.versioned && !input.versioned) await repo.keepLatestValues(tx, attributeId);
      await this.events.write(caller, { dictionary: d.code, messageCode: 'dictionary.attributeUpdated', params: { attribute: input.code, dictionary: d.code }, objectId: attributeId, locationId: d.locationId }, tx);
      return updated;
    });
    this.events.publish(d.code, d.locationId);
    return { ...row, valueType: row.valueType as AttributeValueType };
  }

  /** With its values: a system dictionary's (LOCATION's hold every customer's) only by the default administrator. */
  async removeAttribute(caller: Caller, dictionaryId: number, attributeId: number) {
    const d = await repo.dictionaryById(this.db, dictionaryId);
    const a = await repo.attributeById(this.db, attributeId);
    if (!d || !a || a.dictionaryId !== dictionaryId) throw notFound();
    this.changeable(caller, d);
    await this.db.transaction(async (tx) => {
      await repo.deleteAttribute(tx, attributeId);
      await this.events.write(caller, { dictionary: d.code, messageCode: 'dictionary.attributeDeleted', params: { attribute: a.code, dictionary: d.code }, objectId: attributeId, locationId: d.locationId }, tx);
    });
    this.events.publish(d.code, d.locationId);
  }

  // ---- items ----

  /** Items of a dictionary for its screen and for lookups; locations only within the caller's scope. */
  async items(caller: Caller, d: repo.DictionaryRow) {
    this.readable(caller, d);
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
    if (f.kind === 'item') this.readable(caller, f.dictionary);
    return f;
  }

  async getItem(caller: Caller, id: number) {
    return repo.itemView(this.db, await this.found(caller, id));
  }

  private async checkItemParent(d: repo.DictionaryRow, id: number | null, parentId: number | null, db: Db) {
    if (parentId === null) return;
    if (!d.hierarchical) throw invalid('parentId', 'dictionary.notHierarchical');
    const parent = await repo.itemById(db, parentId);
    if (!parent || parent.dictionaryId !== d.id) throw invalid('parentId', 'dictionary.parentNotInDictionary');
    if (id !== null && (await repo.isInSubtree(db, 'dictionary_items', id, parentId))) throw new AppError('UNPROCESSABLE', { key: 'dictionary.cycle' });
  }

  async createItem(caller: Caller, input: DictionaryItemInput) {
    const d = await repo.dictionaryById(this.db, input.dictionaryId);
    if (!d) throw invalid('dictionaryId', 'general.badValue');
    if (d.code === LOCATION_DICTIONARY) return this.locations.create(caller, input);
    this.changeable(caller, d);
    await this.checkItemParent(d, null, input.parentId ?? null, this.db);
    if (await repo.itemCodeTaken(this.db, d.id, input.code, null)) throw codeConflict('dictionary.itemCodeTaken');
    const id = await this.db.transaction(async (tx) => {
      const row = await repo.insertItem(tx, { dictionaryId: d.id, code: input.code, name: input.name, nameRu: input.nameRu || null, parentId: input.parentId ?? null, sortOrder: input.sortOrder, description: input.description || null });
      await this.events.write(caller, { dictionary: d.code, messageCode: 'dictionary.itemCreated', params: { item: input.code, dictionary: d.code }, objectId: row.id, locationId: d.locationId }, tx);
      return row.id;
    }).catch((err) => {
      throw isUniqueViolation(err) ? codeConflict('dictionary.itemCodeTaken') : err;
    });
    this.events.publish(d.code, d.locationId);
    return this.getItem(caller, id);
  }

  async updateItem(caller: Caller, id: number, patch: DictionaryItemPatch) {
    const f = await this.found(caller, id);
    if (f.kind === 'location') return this.locations.update(caller, id, patch);
    this.changeable(caller, f.dictionary);
    const d = f.dictionary;
    if (patch.code !== undefined && (await repo.itemCodeTaken(this.db, d.id, patch.code, id))) throw codeConflict('dictionary.itemCodeTaken');
    const moving = patch.parentId !== undefined && (patch.parentId ?? null) !== f.row.parentId;
    await this.db.transaction(async (tx) => {
      if (moving) {
        await lockTree(tx, 'dictionary_items');
        await this.checkItemParent(d, id, patch.parentId ?? null, tx);
      }
      await repo.updateItem(tx, id, {
        ...(patch.code !== undefined ? { code: patch.code } : {}),
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.nameRu !== undefined ? { nameRu: patch.nameRu || null } : {}),
        ...(moving ? { parentId: patch.parentId ?? null } : {}),
        ...(patch.sortOrder !== undefined ? { sortOrder: patch.sortOrder } : {}),
        ...(patch.description !== undefined ? { description: patch.description || null } : {}),
      });
      await this.events.write(caller, { dictionary: d.code, messageCode: 'dictionary.itemUpdated', params: { item: patch.code ?? f.row.code, dictionary: d.code }, objectId: id, locationId: d.locationId }, tx);
    }).catch((err) => {
      throw isUniqueViolation(err) ? codeConflict('dictionary.itemCodeTaken') : err;
    });
    this.events.publish(d.code, d.locationId);
    return this.getItem(caller, id);
  }

  async removeItem(caller: Caller, id: number) {
    const f = await this.found(caller, id);
    if (f.kind === 'location') return this.locations.remove(caller, id);
    this.changeable(caller, f.dictionary);
    const children = await repo.childCount(this.db, id);
    if (children) throw conflict('dictionary.hasChildren', { count: children });
    await this.db.transaction(async (tx) => {
      await repo.deleteValuesOfItem(tx, id);
      await repo.deleteItem(tx, id);
      await this.events.write(caller, { dictionary: f.dictionary.code, messageCode: 'dictionary.itemDeleted', params: { item: f.row.code, dictionary: f.dictionary.code }, objectId: id, locationId: f.dictionary.locationId }, tx);
    });
    this.events.publish(f.dictionary.code, f.dictionary.locationId);
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
    } else this.changeable(caller, f.dictionary);
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
      await repo.setValue(tx, { attributeId: a.id, itemId, validFrom, ...values });
      await this.events.write(caller, { dictionary: f.dictionary.code, messageCode: 'dictionary.valueSet', params: { attribute: a.code, item: f.row.code, from: validFrom ? part('from', { date: validFrom }) : '' }, objectId: itemId, locationId: f.kind === 'location' ? itemId : f.dictionary.locationId }, tx);
    });
    this.events.publish(f.dictionary.code, f.dictionary.locationId);
    return this.values(caller, itemId);
  }

  async removeValue(caller: Caller, itemId: number, valueId: number) {
    const f = await this.editableItem(caller, itemId);
    const v = await repo.valueById(this.db, valueId);
    if (!v || v.itemId !== itemId) throw notFound();
    await this.db.transaction(async (tx) => {
      await repo.deleteValue(tx, valueId);
      await this.events.write(caller, { dictionary: f.dictionary.code, messageCode: 'dictionary.valueDeleted', params: { item: f.row.code }, objectId: itemId, locationId: f.kind === 'location' ? itemId : f.dictionary.locationId }, tx);
    });
    this.events.publish(f.dictionary.code, f.dictionary.locationId);
  }
}
