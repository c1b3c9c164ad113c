import { z } from 'zod';
import { keptDay, text } from './fields.ts';
import { day, timestamp } from './list.ts';
import { METER_FLAG_KINDS } from './meter-flags.ts';
import { CORRECTABLE_METERS, METER_NAMES, METER_PARTS, meterField, type MeterField } from './meter-names.ts';

export { CORRECTABLE_METERS, METER_NAMES, METER_PARTS, METERS, meterField, meterOfField, meterTitle, meterTitles } from './meter-names.ts';
export type { Meter, MeterField, MeterPart, MeterTexts } from './meter-names.ts';

/**
 * The data-quality flags a meter read lists for its period, each fault under one name: the
 * plausibility check's kinds (meter-flags.ts: JUMP, BACKWARDS, SPLIT; BACKWARDS and SPLIT also
 * where the period's days show it, a meter stepping back or black-and-white plus colour not the
 * total) and CORRECTED, a meter correction starting in the period.
 */
export const METER_QUALITY_FLAGS = [...METER_FLAG_KINDS, 'CORRECTED'] as const;
export type MeterQualityFlag = (typeof METER_QUALITY_FLAGS)[number];

/**
 * Which total a device is billed on (issue 57), as it reads now: the maker's own total where it
 * has one, else the Printer-MIB's prtMarkerLifeCount.
 */
export const BILLED_TOTALS = ['VENDOR', 'PRINTER_MIB'] as const;
export type BilledTotal = (typeof BILLED_TOTALS)[number];

const n = z.number().int().nullable();
const d = day().nullable();
/** The meter columns of a meter-read row, in the registry's order. */
export const meterColumns = Object.fromEntries(
  METER_NAMES.flatMap((m) => METER_PARTS.map((p) => [meterField(m, p), p.endsWith('Date') ? d : n])),
) as Record<MeterField, typeof n | typeof d>;

/** A correction's limits (security.md, invariant 8): an offset within a counter's range either way. */
export const CORRECTION_LIMITS = { reason: 500, offset: 1_000_000_000_000 } as const;

/** `POST /api/devices/:id/meter-corrections`: from `fromDate` on, `meter` reads `offset` more (less, when negative). */
export const meterCorrectionInputSchema = z.object({
  meter: z.enum(CORRECTABLE_METERS, 'general.badValue'),
  fromDate: keptDay('meterCorrections.badDate', 'meterCorrections.dateRange'),
  offset: z
    .number('general.badValue')
    .int('general.badValue')
    .min(-CORRECTION_LIMITS.offset, 'meterCorrections.offsetRange')
    .max(CORRECTION_LIMITS.offset, 'meterCorrections.offsetRange')
    .refine((v) => v !== 0, 'meterCorrections.offsetZero'),
  reason: text(CORRECTION_LIMITS.reason).trim().min(1, 'general.mandatory'),
});
export type MeterCorrectionInput = z.infer<typeof meterCorrectionInputSchema>;

/**
 * `POST /api/devices/:id/meter-corrections/reset` (issue 54): the device's counters started again
 * (a board swap) on `fromDate`; every stored meter is carried over at once, by its last read
 * before that day, as one act of corrections sharing a `resetId`.
 */
export const meterResetInputSchema = z.object({
  fromDate: keptDay('meterCorrections.badDate', 'meterCorrections.dateRange'),
  reason: text(CORRECTION_LIMITS.reason).trim().min(1, 'general.mandatory'),
});
export type MeterResetInput = z.infer<typeof meterResetInputSchema>;

/** `POST /api/devices/:id/meter-corrections/:correctionId/withdraw`: why (kept with the correction). */
export const meterCorrectionWithdrawSchema = z.object({ reason: text(CORRECTION_LIMITS.reason).trim().min(1, 'general.mandatory') });

/** A correction as listed on the device card: every one is kept, a withdrawn one with who, when and why. */
export const meterCorrectionSchema = z.object({
  id: z.number().int(),
  deviceId: z.number().int(),
  meter: z.enum(CORRECTABLE_METERS),
  fromDate: z.string(),
  offset: z.number().int(),
  /** The counter reset (board swap) this correction is part of: the id of its first correction; null for one entered alone. Withdrawing one withdraws the whole reset. */
  resetId: z.number().int().nullable(),
  reason: z.string(),
  createdBy: z.string().nullable(),
  createdAt: timestamp(),
  withdrawnBy: z.string().nullable(),
  withdrawnAt: timestamp().nullable(),
  withdrawReason: z.string().nullable(),
});
export type MeterCorrection = z.infer<typeof meterCorrectionSchema>;
