import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { MeterCorrection, MeterCorrectionInput } from '@pagewatch/contracts/meter-reads';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/users.ts';
import { METER_COLUMN, meterCorrections, type CorrectedMeter } from '../../db/schema/meter-corrections.ts';

const creator = alias(users, 'creator');
const withdrawer = alias(users, 'withdrawer');

/** Every correction of a device, withdrawn ones too, oldest first (by day, then as entered). */
export async function correctionsOf(db: Db, deviceId: number): Promise<MeterCorrection[]> {
  const rows = await db
    .select({ c: meterCorrections, createdBy: creator.login, withdrawnBy: withdrawer.login })
    .from(meterCorrections)
    .leftJoin(creator, eq(creator.id, meterCorrections.createdBy))
    .leftJoin(withdrawer, eq(withdrawer.id, meterCorrections.withdrawnBy))
    .where(eq(meterCorrections.deviceId, deviceId))
    .orderBy(asc(meterCorrections.fromDate), asc(meterCorrections.id));
  return rows.map(({ c, createdBy, withdrawnBy }) => ({
    id: c.id,
    deviceId: c.deviceId,
    meter: c.meter as MeterCorrection['meter'],
    fromDate: c.fromDate,
    offset: c.offsetPages,
    resetId: c.resetId,
    reason: c.reason,
    createdBy: createdBy ?? null,
    createdAt: c.createdAt.toISOString(),
    withdrawnBy: withdrawnBy ?? null,
    withdrawnAt: c.withdrawnAt?.toISOString() ?? null,
    withdrawReason: c.withdrawReason,
  }));
}

export async function insertCorrection(db: Db, deviceId: number, input: MeterCorrectionInput, userId: number): Promise<number> {
  const [row] = await db
    .insert(meterCorrections)
    .values({ deviceId, meter: input.meter, fromDate: input.fromDate, offsetPages: input.offset, reason: input.reason, createdBy: userId })
    .returning({ id: meterCorrections.id });
  return row.id;
}

/**
 * Each stored meter's last read before `day` (YYYY-MM-DD) from the device's daily history, as
 * read (a correction in force then still applies after the reset, so only the raw count is
 * carried); a meter never read before it, or read as 0, is absent.
 */
export async function lastReadsBefore(db: Db, deviceId: number, day: string): Promise<Partial<Record<CorrectedMeter, number>>> {
  const meters = Object.keys(METER_COLUMN) as CorrectedMeter[];
  const res = await db.execute(sql`SELECT ${sql.join(
    meters.map((m) => sql`(array_agg(dd.${sql.raw(METER_COLUMN[m])} ORDER BY dd.fact_date DESC) FILTER (WHERE dd.${sql.raw(METER_COLUMN[m])} IS NOT NULL))[1] AS ${sql.raw(`"${m}"`)}`),
    sql`, `,
  )} FROM dm_device_days dd WHERE dd.device_id = ${deviceId} AND dd.fact_date < ${day}::date`);
  const row = res.rows[0] ?? {};
  return Object.fromEntries(meters.map((m) => [m, Number(row[m] ?? 0)]).filter(([, v]) => v !== 0));
}

/** The corrections of one counter reset (one act): every carried meter from `fromDate`, the first's id the reset's. */
export async function insertReset(db: Db, deviceId: number, fromDate: string, offsets: Partial<Record<CorrectedMeter, number>>, reason: string, userId: number): Promise<number> {
  const rows = await db
    .insert(meterCorrections)
    .values(Object.entries(offsets).map(([meter, offset]) => ({ deviceId, meter, fromDate, offsetPages: offset, reason, createdBy: userId })))
    .returning({ id: meterCorrections.id });
  const resetId = Math.min(...rows.map((r) => r.id));
  await db.update(meterCorrections).set({ resetId }).where(inArray(meterCorrections.id, rows.map((r) => r.id)));
  return resetId;
}

/**
 * Withdraws a correction still in force, and with it the rest of its counter reset (one act);
 * null when there is none such on the device.
 */
export async function withdrawCorrection(db: Db, deviceId: number, id: number, reason: string, userId: number): Promise<{ meter: string; fromDate: string; offset: number; resetId: number | null } | null> {
  const [row] = await db
    .update(meterCorrections)
    .set({ withdrawnAt: sql`now()`, withdrawnBy: userId, withdrawReason: reason })
    .where(and(eq(meterCorrections.id, id), eq(meterCorrections.deviceId, deviceId), isNull(meterCorrections.withdrawnAt)))
    .returning({ meter: meterCorrections.meter, fromDate: meterCorrections.fromDate, offset: meterCorrections.offsetPages, resetId: meterCorrections.resetId });
  if (row?.resetId != null) {
    await db
      .update(meterCorrections)
      .set({ withdrawnAt: sql`now()`, withdrawnBy: userId, withdrawReason: reason })
      .where(and(eq(meterCorrections.resetId, row.resetId), eq(meterCorrections.deviceId, deviceId), isNull(meterCorrections.withdrawnAt)));
  }
  return row ?? null;
}
