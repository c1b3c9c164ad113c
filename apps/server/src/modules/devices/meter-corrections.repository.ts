import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { MeterCorrection, MeterCorrectionInput } from '@pagewatch/contracts/meter-reads';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/users.ts';
import { meterCorrections } from '../../db/schema/meter-corrections.ts';

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

/** Withdraws a correction still in force; false when there is none such on the device. */
export async function withdrawCorrection(db: Db, deviceId: number, id: number, reason: string, userId: number): Promise<{ meter: string; fromDate: string; offset: number } | null> {
  const [row] = await db
    .update(meterCorrections)
    .set({ withdrawnAt: sql`now()`, withdrawnBy: userId, withdrawReason: reason })
    .where(and(eq(meterCorrections.id, id), eq(meterCorrections.deviceId, deviceId), isNull(meterCorrections.withdrawnAt)))
    .returning({ meter: meterCorrections.meter, fromDate: meterCorrections.fromDate, offset: meterCorrections.offsetPages });
  return row ?? null;
}
