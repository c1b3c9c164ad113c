import { z } from 'zod';
import { SOURCED_COUNTERS } from './reading.ts';

/**
 * Plausibility of meter reads (issue 41): what ingest found implausible in a reading against the
 * device's previous one. JUMP: a step larger than the device could print at its rated speed in
 * the time between the two reads; BACKWARDS: a meter lower than before; SPLIT: black-and-white
 * plus colour not adding up to the billing total (the reading's splitMismatch).
 */
export const METER_FLAG_KINDS = ['JUMP', 'BACKWARDS', 'SPLIT'] as const;
export type MeterFlagKind = (typeof METER_FLAG_KINDS)[number];

/** The meters a flag names: the reading's page counters (the power-on count is no meter read). */
export const FLAGGED_METERS = SOURCED_COUNTERS.filter((c) => c !== 'powerOn');
export type FlaggedMeter = (typeof FLAGGED_METERS)[number];

/**
 * Pages a minute assumed where the device's rated speed is unknown (the models pack reads it from
 * the model's name for Kyocera, Konica Minolta, Ricoh, Sharp, Canon and Xerox models that carry
 * it). 150 is above any office device's rating (production presses reach it), so only a step no
 * device could print is flagged.
 */
export const DEFAULT_RATED_PPM = 150;

/** The days home's data quality looks back over for flagged reads. */
export const METER_FLAG_HOME_DAYS = 30;

/** How many flags the device card lists, the newest first. */
export const DEVICE_METER_FLAGS = 20;

/** One flag as the card and the reports see it. */
export const meterFlagSchema = z.object({
  at: z.string(),
  kind: z.enum(METER_FLAG_KINDS),
  /** The first meter the flag is about (the total before the others); the others are in `others`. */
  meter: z.string(),
  previousValue: z.number().nullable(),
  value: z.number().nullable(),
  /** JUMP: the minutes between the reads and the most pages the device could print in them. */
  minutes: z.number().nullable(),
  limit: z.number().nullable(),
  /** SPLIT: black-and-white plus colour, against the total in `value`. */
  monoPlusColor: z.number().nullable(),
  /** Other meters of the same reading with the same fault. */
  others: z.array(z.object({ meter: z.string(), previousValue: z.number().nullable(), value: z.number().nullable() })),
});
export type MeterFlag = z.infer<typeof meterFlagSchema>;
