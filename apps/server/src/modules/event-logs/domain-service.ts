import type { Db } from '../../db/client.ts';
import type { EventLog } from './event-logs.service.ts';

/** A domain's service: the database its verbs work on and the event log they write to. */
export abstract class DomainService {
  protected readonly db: Db;
  protected readonly log: EventLog;
  constructor(db: Db, log: EventLog) {
    this.db = db;
    this.log = log;
  }
}
