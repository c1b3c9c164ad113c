import { sql, type SQL } from 'drizzle-orm';
import { DEVICE_STATUS_ROWS, type AgentDeviceStatusRow, type AgentDevicesStatus, type AgentDevicesStatusQuery } from '@pagewatch/contracts/agents';
import type { DeviceFailureReason } from '@pagewatch/contracts/agent-api';
import type { Db } from '../../db/client.ts';
import { scopeCondition, type Scoped } from '../../db/scope.ts';

/** One device's outcome of a run, with the range it was read in. */
export type Outcome = { rangeId: number; ip: string; reason: DeviceFailureReason | null; ms: number };

/**
 * A run's outcomes over the agent's latest status per address (one statement): a read sets the
 * last good read and zeroes the failures in a row, a failure sets the last failure and counts it.
 */
export async function recordOutcomes(db: Db, agentId: number, at: Date, all: Outcome[]): Promise<void> {
  // One row per address: ranges may overlap (a v2c and a v3 range over the same printers), and
  // one statement cannot update a row twice. A read in any range counts as read.
  const byIp = new Map<string, Outcome>();
  for (const o of all) if (!byIp.has(o.ip) || o.reason === null) byIp.set(o.ip, o);
  const outcomes = [...byIp.values()];
  if (outcomes.length === 0) return;
  const values = sql.join(outcomes.map((o) => sql`(${o.ip}, ${o.rangeId}::int, ${o.reason}::text, ${o.ms}::int)`), sql`, `);
  await db.execute(sql`
    INSERT INTO agent_device_status AS s (agent_id, ip, range_id, last_ok_at, last_ok_ms, last_failure_at, last_failure_reason, last_failure_ms, failures_in_row, updated_at)
    SELECT ${agentId}, v.ip, v.range_id,
           CASE WHEN v.reason IS NULL THEN ${at}::timestamptz END, CASE WHEN v.reason IS NULL THEN v.ms END,
           CASE WHEN v.reason IS NOT NULL THEN ${at}::timestamptz END, v.reason, CASE WHEN v.reason IS NOT NULL THEN v.ms END,
           CASE WHEN v.reason IS NULL THEN 0 ELSE 1 END, now()
    FROM (VALUES ${values}) AS v(ip, range_id, reason, ms)
    ON CONFLICT (agent_id, ip) DO UPDATE SET
      range_id = excluded.range_id,
      last_ok_at = coalesce(excluded.last_ok_at, s.last_ok_at),
      last_ok_ms = CASE WHEN excluded.last_ok_at IS NULL THEN s.last_ok_ms ELSE excluded.last_ok_ms END,
      last_failure_at = coalesce(excluded.last_failure_at, s.last_failure_at),
      last_failure_reason = coalesce(excluded.last_failure_reason, s.last_failure_reason),
      last_failure_ms = CASE WHEN excluded.last_failure_at IS NULL THEN s.last_failure_ms ELSE excluded.last_failure_ms END,
      failures_in_row = CASE WHEN excluded.last_failure_at IS NULL THEN 0 ELSE s.failures_in_row + 1 END,
      updated_at = now()`);
}

const iso = (v: unknown): string | null => (v === null || v === undefined ? null : new Date(v as string).toISOString());
const intOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** The agent's devices' latest outcomes, filtered; the failing first (most runs in a row), then by address. */
export async function devicesStatus(db: Db, agentId: number, q: AgentDevicesStatusQuery, caller: Scoped): Promise<AgentDevicesStatus> {
  const where: SQL[] = [sql`s.agent_id = ${agentId}`];
  if (q.outcome === 'OK') where.push(sql`s.failures_in_row = 0`);
  if (q.outcome === 'FAILED') where.push(sql`s.failures_in_row > 0`);
  if (q.reason) where.push(sql`s.failures_in_row > 0 AND s.last_failure_reason = ${q.reason}`);
  if (q.address) where.push(sql`starts_with(s.ip, ${q.address})`);
  // The device known at the address through this agent (the latest seen), when it is the caller's to see: its model and serial beside the address.
  const seen = scopeCondition(caller, sql`d.location_id`);
  const res = await db.execute<Record<string, unknown>>(sql`
    SELECT s.ip, s.range_id, s.last_ok_at, s.last_ok_ms, s.last_failure_at, s.last_failure_reason, s.last_failure_ms, s.failures_in_row,
           dev.id AS device_id, dev.model_code, dev.serial_number, count(*) OVER () AS total
    FROM agent_device_status s
    LEFT JOIN LATERAL (
      SELECT d.id, d.model_code, d.serial_number FROM devices d
      WHERE d.ip = s.ip AND d.agent_id = s.agent_id${seen ? sql` AND ${seen}` : sql``}
      ORDER BY d.refreshed_at DESC LIMIT 1
    ) dev ON true
    WHERE ${sql.join(where, sql` AND `)}
    ORDER BY s.failures_in_row DESC, string_to_array(s.ip, '.')::int[] LIMIT ${DEVICE_STATUS_ROWS}`);
  const rows = res.rows;
  return {
    totalRows: rows.length ? Number(rows[0]!.total) : 0,
    rows: rows.map((r): AgentDeviceStatusRow => ({
      ip: String(r.ip),
      deviceId: intOrNull(r.device_id),
      modelCode: (r.model_code ?? null) as string | null,
      serialNumber: (r.serial_number ?? null) as string | null,
      rangeId: intOrNull(r.range_id),
      outcome: Number(r.failures_in_row) > 0 ? 'FAILED' : 'OK',
      lastOkAt: iso(r.last_ok_at),
      lastOkMs: intOrNull(r.last_ok_ms),
      lastFailureAt: iso(r.last_failure_at),
      lastFailureReason: (r.last_failure_reason ?? null) as DeviceFailureReason | null,
      lastFailureMs: intOrNull(r.last_failure_ms),
      failuresInRow: Number(r.failures_in_row),
    })),
  };
}
