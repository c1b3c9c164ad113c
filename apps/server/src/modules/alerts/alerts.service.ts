import type { Alert } from '@pagewatch/contracts/alerts';
import type { Db } from '../../db/client.ts';
import type { Caller } from '../../lib/caller.ts';
import { conflict, notFound } from '../../lib/app-error.ts';
import * as repo from './alerts.repository.ts';
import './alerts.messages.ts';

/** What a caller sees of alerts: those of their locations; an agent's only with MNU_AGENTS.READ, as home shows agents. */
const seesAgents = (caller: Caller) => caller.grants.has('MNU_AGENTS.READ');

/** Alerts (issue 42): the open conditions of the caller's locations, and their acknowledgement. */
export class AlertsService {
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  async list(caller: Caller, q: { open: boolean; limit: number }): Promise<Alert[]> {
    const rows = await repo.listAlerts(this.db, caller, q.open, q.limit);
    return seesAgents(caller) ? rows : rows.filter((a) => a.kind !== 'AGENT_SILENT');
  }

  /**
   * Records who acknowledged an open alert and when (it is not mailed again). An alert outside
   * the caller's locations is "not found", exactly like a missing one; a resolved one is a 409.
   */
  async acknowledge(caller: Caller, id: number): Promise<Alert> {
    const find = async () => (await repo.listAlerts(this.db, caller, false, 1, id))[0];
    const alert = await find();
    if (!alert || (alert.kind === 'AGENT_SILENT' && !seesAgents(caller))) throw notFound();
    if (alert.resolvedAt) throw conflict('alerts.notOpen');
    await repo.acknowledge(this.db, id, caller.userId, new Date());
    return (await find())!;
  }

  /** Opens and closes the AGENT_SILENT alerts (the notification worker's pass). */
  sweepAgents(now = new Date()): Promise<number> {
    return this.db.transaction((tx) => repo.syncAgentAlerts(tx, now));
  }
}
