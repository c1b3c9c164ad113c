import {
  DEFAULT_LOCATION_CODE,
  ROOM_PLAN_MAX_BYTES,
  type DictionaryItemInput,
  type DictionaryItemPatch,
  type LocationDetailsInput,
  type LocationPlan,
  type PlanPlacement,
} from '@pagewatch/contracts/dictionaries';
import type { ListQuery } from '@pagewatch/contracts/list';
import type { Db } from '../../db/client.ts';
import { runList } from '../../lib/list-run.ts';
import { lockTree } from '../../db/tree-lock.ts';
import { AppError, conflict, forbidden, invalid, notFound } from '../../lib/app-error.ts';
import type { Caller } from '../../lib/caller.ts';
import { deleteValuesOfItem, DictionaryDomainService, type DictionaryEvents, findItem, isInSubtree, isUniqueViolation, itemView, type LocationItems } from '../dictionaries/index.ts';
import type { DomainEvents } from '../../lib/domain-events.ts';
import * as repo from './locations.repository.ts';
import { agentsOfLocation, dependentCounts, devicesOfLocation, type LocationRow } from './locations.repository.ts';
import { userLocationsListSql } from './locations.list.ts';
import { sanitizeSvgOffThread, SvgError } from './svg-sanitize.ts';
import { part } from '../event-logs/index.ts';

const DICTIONARY = 'LOCATION';
const EDIT = 'PAGE_LOCATION.EDIT';

const detailColumns = (d: LocationDetailsInput | null | undefined) =>
  d
    ? {
        addressIndex: d.addressIndex || null,
        city: d.city || null,
        street: d.street || null,
        house: d.house || null,
        floor: d.floor || null,
        room: d.room || null,
        contactName: d.contactName || null,
        contactPosition: d.contactPosition || null,
        contactPhones: d.contactPhones || null,
      }
    : {};

/** What the bytes are, by their first bytes (never by the name or the declared type). */
export function sniffImage(data: Buffer): 'image/png' | 'image/jpeg' | 'image/svg+xml' | null {
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  // The first element of an XML text, past its declaration, comments and DOCTYPE (with a subset).
  const head = data
    .subarray(0, 64 * 1024)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .replace(/<\?xml[^>]*\?>|<!--[\s\S]*?-->|<!DOCTYPE[^[>]*(\[[\s\S]*?\])?\s*>/gi, '');
  if (/^\s*<svg[\s>]/.test(head)) return 'image/svg+xml';
  return null;
}

/**
 * Locations are the LOCATION dictionary's items. Everyone signed in reads those in their
 * scope; PAGE_LOCATION.EDIT creates, changes, moves and deletes them, inside the scope.
 */
export class LocationsService extends DictionaryDomainService implements LocationItems {
  /** A location added, moved or removed is announced: auth drops every cached scope. */
  private readonly changes: DomainEvents;
  constructor(db: Db, events: DictionaryEvents, changes: DomainEvents) {
    super(db, events);
    this.changes = changes;
  }

  /** After a committed change of the tree: the dictionary's listeners reload, every scope is reckoned again. */
  private changed() {
    this.events.publish(DICTIONARY);
    this.changes.raise({ type: 'locations.changed' });
  }

  ref(id: number) {
    return repo.locationRef(this.db, id);
  }

  /** A page of the locations the caller sees. */
  userLocations(caller: Caller, q: ListQuery) {
    return runList<{ id: number; code: string; name: string; parentId: number | null }>(this.db, userLocationsListSql, q, caller);
  }

  private async visible(caller: Caller, id: number): Promise<LocationRow> {
    const row = await repo.locationById(this.db, id);
    if (!row) throw notFound();
    if (!caller.scope.has(id)) throw new AppError('OUT_OF_SCOPE');
    return row;
  }

  private editable(caller: Caller, id: number) {
    if (!caller.grants.has(EDIT)) throw forbidden();
    return this.visible(caller, id);
  }

  async get(caller: Caller, id: number) {
    await this.visible(caller, id);
    return this.view(id);
  }

  /** After a change: the caller's scope was computed before a new location existed. */
  private async view(id: number) {
    return itemView(this.db, (await findItem(this.db, id))!);
  }

  /**
   * The new parent must exist, be in scope, and not be the location itself or below it. Only
   * the default administrator makes roots or moves a location the caller holds directly: anyone
   * else could lift their location out of the tree, above the default administrator's reach.
   */
  private async checkParent(caller: Caller, id: number | null, parentId: number | null, db: Db = this.db) {
    if (!caller.defaultAdmin) {
      if (parentId === null) throw new AppError('OUT_OF_SCOPE', { key: 'location.rootDefaultAdminOnly' });
      if (id !== null && caller.locationIds.includes(id)) throw new AppError('OUT_OF_SCOPE', { key: 'location.ownMove' });
    }
    if (parentId === null) return;
    if (!(await repo.locationRef(db, parentId))) throw invalid('parentId', 'general.badValue');
    if (!caller.scope.has(parentId)) throw new AppError('OUT_OF_SCOPE', { key: 'location.parentOutOfScope' });
    if (id !== null && (await isInSubtree(db, 'locations', id, parentId))) throw new AppError('UNPROCESSABLE', { key: 'location.cycle' });
  }

  async create(caller: Caller, input: DictionaryItemInput) {
    if (!caller.grants.has(EDIT)) throw forbidden();
    if (input.parentId == null) throw invalid('parentId', 'location.parentRequired');
    await this.checkParent(caller, null, input.parentId);
    if (await repo.locationCodeTaken(this.db, input.code, null)) throw new AppError('CONFLICT', { fields: [{ field: 'code', key: 'location.codeTaken' }] });
    let id: number;
    try {
      id = await this.db.transaction(async (tx) => {
        const row = await repo.insertLocation(tx, {
          code: input.code,
          name: input.name,
          parentId: input.parentId,
          sortOrder: input.sortOrder,
          description: input.description || null,
          ...detailColumns(input.location),
        });
        await this.events.write(caller, { dictionary: DICTIONARY, messageCode: 'location.created', params: { code: input.code }, objectId: row.id, locationId: row.id }, tx);
        return row.id;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('CONFLICT', { fields: [{ field: 'code', key: 'location.codeTaken' }] });
      throw err;
    }
    this.changed();
    return this.view(id);
  }

  async update(caller: Caller, id: number, patch: DictionaryItemPatch) {
    const current = await this.editable(caller, id);
    if (patch.code !== undefined && patch.code !== current.code) {
      if (current.code === DEFAULT_LOCATION_CODE) throw new AppError('UNPROCESSABLE', { fields: [{ field: 'code', key: 'location.defaultCode' }] });
      if (await repo.locationCodeTaken(this.db, patch.code, id)) throw new AppError('CONFLICT', { fields: [{ field: 'code', key: 'location.codeTaken' }] });
    }
    const moving = patch.parentId !== undefined && (patch.parentId ?? null) !== current.parentId;
    try {
      await this.db.transaction(async (tx) => {
        if (moving) {
          await lockTree(tx, 'locations');
          await this.checkParent(caller, id, patch.parentId ?? null, tx);
        }
        await repo.updateLocation(tx, id, {
          ...(patch.code !== undefined ? { code: patch.code } : {}),
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(moving ? { parentId: patch.parentId ?? null } : {}),
          ...(patch.sortOrder !== undefined ? { sortOrder: patch.sortOrder } : {}),
          ...(patch.description !== undefined ? { description: patch.description || null } : {}),
          ...detailColumns(patch.location),
          updatedAt: new Date(),
        });
        const params = moving ? { code: current.code, parent: patch.parentId ?? part('topLevel') } : { code: patch.code ?? current.code };
        await this.events.write(caller, { dictionary: DICTIONARY, params, messageCode: moving ? 'location.moved' : 'location.updated', objectId: id, locationId: id }, tx);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('CONFLICT', { fields: [{ field: 'code', key: 'location.codeTaken' }] });
      throw err;
    }
    this.changed();
    return this.view(id);
  }

  async remove(caller: Caller, id: number) {
    const current = await this.editable(caller, id);
    if (current.code === DEFAULT_LOCATION_CODE) throw conflict('location.defaultDelete');
    await this.db.transaction(async (tx) => {
      await lockTree(tx, 'locations');
      const left = await dependentCounts(tx, id);
      if (left.length) {
        throw conflict('location.inUse', { what: left.map((d) => ({ key: `location.dep.${d.dep}`, params: { count: d.count } })) });
      }
      await deleteValuesOfItem(tx, id);
      await repo.deleteLocation(tx, id);
      await this.events.write(caller, { dictionary: DICTIONARY, messageCode: 'location.deleted', params: { code: current.code }, objectId: id }, tx);
    });
    this.changed();
  }

  // ---- room plan ----

  async plan(caller: Caller, id: number): Promise<LocationPlan> {
    await this.visible(caller, id);
    const planType = await repo.planType(this.db, id);
    const devices = await devicesOfLocation(this.db, id);
    const present = new Set(devices.map((d) => d.id));
    const placements = await repo.placementsOf(this.db, id);
    // A device that moved to another location (or was deleted) leaves the plan.
    return { planType, placements: placements.filter((p) => present.has(p.deviceId)), devices };
  }

  async planImage(caller: Caller, id: number) {
    await this.visible(caller, id);
    const plan = await repo.planOf(this.db, id);
    if (!plan) throw notFound();
    return { contentType: plan.contentType, data: await repo.planBytes(this.db, id, plan.upload) };
  }

  async uploadPlan(caller: Caller, id: number, data: Buffer) {
    await this.editable(caller, id);
    if (data.length > ROOM_PLAN_MAX_BYTES) throw new AppError('TOO_LARGE', { key: 'location.planTooLarge' });
    if (!data.length) throw invalid('file', 'location.planMissing');
    const type = sniffImage(data);
    if (!type) throw new AppError('UNSUPPORTED_MEDIA', { key: 'location.planType' });
    let stored = data;
    if (type === 'image/svg+xml') {
      try {
        stored = await sanitizeSvgOffThread(data);
      } catch (err) {
        if (err instanceof SvgError) throw new AppError('UNPROCESSABLE', { key: 'location.planBadSvg' });
        throw err;
      }
    }
    // The bytes first, a part a statement and outside the transaction, so that the server's other
    // statements pass between them; then the plan names them.
    const upload = await repo.writePlanParts(this.db, id, stored);
    await this.db.transaction(async (tx) => {
      if (!(await repo.savePlan(tx, id, type, upload))) return;
      await this.events.write(caller, { dictionary: DICTIONARY, messageCode: 'location.planUploaded', params: { id }, objectId: id, locationId: id }, tx);
    });
    return this.plan(caller, id);
  }

  async deletePlan(caller: Caller, id: number) {
    await this.editable(caller, id);
    await this.db.transaction(async (tx) => {
      await repo.deletePlan(tx, id);
      await this.events.write(caller, { dictionary: DICTIONARY, messageCode: 'location.planDeleted', params: { id }, objectId: id, locationId: id }, tx);
    });
  }

  /** Replaces the placements; every device must belong to this location. */
  async savePlacements(caller: Caller, id: number, placements: PlanPlacement[]) {
    await this.editable(caller, id);
    const devices = new Set((await devicesOfLocation(this.db, id)).map((d) => d.id));
    const unique = new Map(placements.map((p) => [p.deviceId, p]));
    for (const p of unique.values()) {
      if (!devices.has(p.deviceId)) throw new AppError('VALIDATION', { fields: [{ field: 'placements', key: 'location.deviceNotHere', params: { id: p.deviceId } }] });
    }
    await this.db.transaction(async (tx) => {
      await repo.replacePlacements(tx, id, [...unique.values()]);
      await this.events.write(caller, { dictionary: DICTIONARY, messageCode: 'location.planPlaced', params: { count: unique.size, id }, objectId: id, locationId: id }, tx);
    });
    return this.plan(caller, id);
  }

  async agents(caller: Caller, id: number) {
    await this.visible(caller, id);
    const rows = await agentsOfLocation(this.db, id);
    return { pageRows: rows, totalRows: rows.length };
  }

  async devices(caller: Caller, id: number) {
    await this.visible(caller, id);
    const rows = await devicesOfLocation(this.db, id);
    return { pageRows: rows, totalRows: rows.length };
  }
}
