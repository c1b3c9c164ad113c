import type { ListQuery } from '@pagewatch/contracts/list';
import type { Db } from '../../db/client.ts';
import type { ListDef } from '../../lib/list-query.ts';
import { runListJson } from '../../lib/list-run.ts';
import type { Caller } from '../../lib/caller.ts';
import { forecastAccuracy, type AccuracyRow } from './consumables.repository.ts';

/** The consumables of the devices the caller sees. */
export class ConsumablesService {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** A page of one of the consumables lists (consumables.list.ts) as JSON text. */
  list(caller: Caller, def: ListDef, q: ListQuery): Promise<string> {
    return runListJson(this.db, def, q, caller);
  }

  /** The forecasts' error in days over the last 90 days' replacements in the caller's locations. */
  accuracy(caller: Caller, today = new Date()): Promise<AccuracyRow[]> {
    return forecastAccuracy(this.db, caller.allLocations ? null : [...caller.scope], today.toISOString().slice(0, 10));
  }
}
