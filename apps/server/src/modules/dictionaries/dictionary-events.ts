import type { Db } from '../../db/client.ts';
import type { Hub } from '../../plugins/realtime.ts';
import type { EventLog } from '../event-logs/index.ts';
import type { Caller } from '../../lib/caller.ts';
import type { DictionaryItem, DictionaryItemInput, DictionaryItemPatch } from '@pagewatch/contracts/dictionaries';

export type DictionaryChange = {
  dictionary: string;
  messageCode: string;
  /** The params of `log.<messageCode>`; the caller's login is added as `actor`. */
  params: Record<string, unknown>;
  objectId?: number | null;
  locationId?: number | null;
};

/**
 * Every dictionary change is logged (inside the change's transaction) and then announced on
 * the hub topic `dic` (after the commit: a listener that reloads must see the new data).
 */
export class DictionaryEvents {
  private readonly log: EventLog;
  private readonly hub: Hub;
  constructor(log: EventLog, hub: Hub) {
    this.log = log;
    this.hub = hub;
  }

  async write(caller: Caller, c: DictionaryChange, tx: Db) {
    const isLocation = c.dictionary === 'LOCATION';
    await this.log.byCaller(
      caller,
      {
        group: isLocation ? 'LOCATIONS' : 'DICTIONARIES',
        level: 'I',
        messageCode: c.messageCode,
        params: c.params,
        objectClass: isLocation ? 'LocationDao' : null,
        objectId: c.objectId ?? null,
        locationId: c.locationId ?? null,
      },
      tx,
    );
  }

  /** A customer's dictionary names its location: only sockets with it in scope hear of it. */
  publish(dictionary: string, locationId: number | null = null) {
    this.hub.publish('dic', { type: 'DICTIONARY_CHANGED', dictionary, ...(locationId === null ? {} : { locationId }) });
  }
}

/** A unique index said no: the code is taken (checked first, but two saves can race). */
export function isUniqueViolation(err: unknown): boolean {
  for (let e = err as { code?: string; cause?: unknown } | undefined, i = 0; e && i < 4; e = e.cause as typeof e, i++) {
    if (e.code === '23505') return true;
  }
  return false;
}

/** The services of dictionaries and locations: the database and the dictionary events. */
export abstract class DictionaryDomainService {
  protected readonly db: Db;
  protected readonly events: DictionaryEvents;
  constructor(db: Db, events: DictionaryEvents) {
    this.db = db;
    this.events = events;
  }
}

/**
 * The LOCATION dictionary's items are the locations module's, which sits above dictionaries (it
 * keeps its items' attribute values here): dictionaries hand them over through this, given by
 * app.ts, and never import locations (issue 40).
 */
export type LocationItems = {
  create(caller: Caller, input: DictionaryItemInput): Promise<DictionaryItem>;
  update(caller: Caller, id: number, patch: DictionaryItemPatch): Promise<DictionaryItem>;
  remove(caller: Caller, id: number): Promise<void>;
  /** The location's id, code and name; null when there is none. */
  ref(id: number): Promise<{ id: number; code: string; name: string } | null>;
};
