import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { sqlRows } from '../../db/sql-rows.ts';
import { DEVICE_COLUMNS, type DeviceFacts } from './dispatch.repository.ts';

const date = (v: unknown) => (v == null ? null : new Date(v as string));

/** An alert the dispatcher has something to tell of, with what its mails say of its subject. */
export type AlertToMail = Partial<DeviceFacts> & {
  id: number;
  kind: 'DEVICE_ERROR' | 'DEVICE_OFFLINE' | 'AGENT_SILENT';
  startedAt: Date;
  resolvedAt: Date | null;
  startMailed: boolean;
  resolveMailed: boolean;
  locationId: number;
  locationName: string;
  errorBits: string[] | null;
  agentName: string | null;
  lastContactAt: Date | null;
};

/**
 * Takes the alerts with a mail due, locked for this transaction (another instance skips them):
 * a start or an end not told yet, or (with `repeatHours`) an open one nobody acknowledged that
 * was last told that long ago. Supplies are told by their notifications' own thresholds, and
 * again by dispatchLevels (levelRepeats).
 */
export async function claimAlertsToMail(tx: Db, repeatHours: number, now: Date, limit: number): Promise<AlertToMail[]> {
  const repeatBefore = new Date(now.getTime() - repeatHours * 3600_000).toISOString();
  const rows = await sqlRows<AlertToMail & Record<string, unknown>>(tx, sql`
    WITH claimed AS (
      SELECT id FROM alerts WHERE kind IN ('DEVICE_ERROR', 'DEVICE_OFFLINE', 'AGENT_SILENT')
        AND (NOT start_mailed OR (resolved_at IS NOT NULL AND NOT resolve_mailed)
          OR (${repeatHours > 0} AND resolved_at IS NULL AND acknowledged_at IS NULL AND coalesce(last_notified_at, started_at) <= ${repeatBefore}::timestamptz))
      ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    SELECT a.id, a.kind, a.started_at AS "startedAt", a.resolved_at AS "resolvedAt", a.start_mailed AS "startMailed", a.resolve_mailed AS "resolveMailed",
      g.name AS "agentName", g.last_contact_at AS "lastContactAt", d.error_bits AS "errorBits", ${DEVICE_COLUMNS},
      loc.id AS "alertLocationId", loc.name AS "alertLocationName"
    FROM claimed JOIN alerts a ON a.id = claimed.id
    LEFT JOIN devices d ON d.id = a.device_id LEFT JOIN agents g ON g.id = a.agent_id
    JOIN locations loc ON loc.id = coalesce(d.location_id, g.location_id)
    ORDER BY a.id`);
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    deviceId: r.deviceId == null ? undefined : Number(r.deviceId),
    locationId: Number(r.alertLocationId),
    locationName: r.alertLocationName as string,
    startedAt: date(r.startedAt)!,
    resolvedAt: date(r.resolvedAt),
    lastContactAt: date(r.lastContactAt),
  }));
}

/** What was told is told: the start, the end if there is one, and when. */
export async function markAlertsMailed(tx: Db, ids: number[], now: Date) {
  if (!ids.length) return;
  await tx.execute(sql`UPDATE alerts SET start_mailed = true, resolve_mailed = resolved_at IS NOT NULL, last_notified_at = ${now.toISOString()}::timestamptz
    WHERE id IN (${sql.join(ids.map((i) => sql`${i}`), sql`, `)})`);
}
