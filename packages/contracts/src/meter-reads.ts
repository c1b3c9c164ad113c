import { z } from 'zod';
import { keptDay, text } from './fields.ts';
import { day, timestamp } from './list.ts';

/**
 * The meters of a meter read (issue 41), as dealers bill them: each with the customary numeric
 * code where there is one (101 total, 102 total counting large pages twice, 112/113 black large
 * and small, 122/123 colour large and small). `stored` meters are counters the daily history
 * keeps (and a correction may offset); the others are worked out from them per day: 102 is
 * total + large, prints are total − copies − fax.
 */
export const METERS = {
  total: { code: 101, stored: true },
  totalLargeTwice: { code: 102, stored: false },
  mono: { code: null, stored: true },
  color: { code: null, stored: true },
  a3: { code: null, stored: true },
  a4: { code: null, stored: true },
  a3Bw: { code: 112, stored: true },
  a4Bw: { code: 113, stored: true },
  a3Color: { code: 122, stored: true },
  a4Color: { code: 123, stored: true },
  copies: { code: null, stored: true },
  prints: { code: null, stored: false },
  scans: { code: null, stored: true },
  fax: { code: null, stored: true },
  duplex: { code: null, stored: true },
} as const satisfies Record<string, { code: number | null; stored: boolean }>;
export type Meter = keyof typeof METERS;
export const METER_NAMES = Object.keys(METERS) as Meter[];

/** The meters a correction may offset: those the history stores (the derived ones follow from them). */
export const CORRECTABLE_METERS = METER_NAMES.filter((m) => METERS[m].stored) as [Meter, ...Meter[]];

/** The figures of each meter in a meter-read row: first and last read (with their days) and the pages between. */
export const METER_PARTS = ['First', 'FirstDate', 'Last', 'LastDate', 'Pages'] as const;
export type MeterPart = (typeof METER_PARTS)[number];
export type MeterField = `${Meter}${MeterPart}`;
export const meterField = (m: Meter, part: MeterPart): MeterField => `${m}${part}`;
/** The meter and part of a meter-read field (`a3BwFirstDate` → a3Bw, FirstDate), or null for the others. */
export function meterOfField(field: string): { meter: Meter; part: MeterPart } | null {
  for (const part of ['FirstDate', 'LastDate', 'First', 'Last', 'Pages'] as const) {
    if (!field.endsWith(part)) continue;
    const meter = field.slice(0, -part.length) as Meter;
    if (Object.hasOwn(METERS, meter)) return { meter, part };
  }
  return null;
}

/** The texts of the meters (messages.ts `meters`), in one language. */
export type MeterTexts = { name: Record<Meter, string>; part: Record<MeterPart, string>; header: string; headerCode: string };

/** A meter column's title, the same in the file's header and the grid's: "Total (101): first read". */
export function meterTitle(texts: MeterTexts, field: string): string | null {
  const of = meterOfField(field);
  if (!of) return null;
  const code = METERS[of.meter].code;
  return (code === null ? texts.header : texts.headerCode)
    .replace('{{meter}}', texts.name[of.meter])
    .replace('{{code}}', String(code))
    .replace('{{part}}', texts.part[of.part]);
}

/** Every meter column's title in one language (the console adds them to its texts as `meters.title.<field>`). */
export const meterTitles = (texts: MeterTexts): Record<MeterField, string> =>
  Object.fromEntries(METER_NAMES.flatMap((m) => METER_PARTS.map((p) => [meterField(m, p), meterTitle(texts, meterField(m, p))]))) as Record<MeterField, string>;

/**
 * The data-quality flags a meter read lists for its period, each defined once: a later check
 * (plausibility) adds its code here and its condition in the report's statement.
 * SPLIT_MISMATCH: black-and-white plus colour differ from the total on a day of the period;
 * COUNTER_BACKWARDS: a meter stepped back (its pages count forward steps only);
 * CORRECTED: a meter correction starts in the period.
 */
export const METER_QUALITY_FLAGS = ['SPLIT_MISMATCH', 'COUNTER_BACKWARDS', 'CORRECTED'] as const;
export type MeterQualityFlag = (typeof METER_QUALITY_FLAGS)[number];

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

/** `POST /api/devices/:id/meter-corrections/:correctionId/withdraw`: why (kept with the correction). */
export const meterCorrectionWithdrawSchema = z.object({ reason: text(CORRECTION_LIMITS.reason).trim().min(1, 'general.mandatory') });

/** A correction as listed on the device card: every one is kept, a withdrawn one with who, when and why. */
export const meterCorrectionSchema = z.object({
  id: z.number().int(),
  deviceId: z.number().int(),
  meter: z.enum(CORRECTABLE_METERS),
  fromDate: z.string(),
  offset: z.number().int(),
  reason: z.string(),
  createdBy: z.string().nullable(),
  createdAt: timestamp(),
  withdrawnBy: z.string().nullable(),
  withdrawnAt: timestamp().nullable(),
  withdrawReason: z.string().nullable(),
});
export type MeterCorrection = z.infer<typeof meterCorrectionSchema>;
