import { DEFAULT_RATED_PPM, FLAGGED_METERS, type MeterFlagKind } from '@pagewatch/contracts/meter-flags';
import type { ReadingCounters } from '@pagewatch/contracts/reading';
import type { MeterFlagDetail } from '../../db/schema/meter-flags.ts';
import { COUNTER_FIELDS, type DeviceState } from './derive.ts';

/**
 * Plausibility of a reading's meters against the device's state, which holds its previous
 * reading (issue 41). Pure and cheap: ingest has the state in memory already, so this costs no
 * query; the flags it returns are written with the batch. One flag per kind and reading: a board
 * swap sends every meter back, and that is one fault, not thirteen; the first meter (the total
 * before the others) is the flag's, the rest are in its detail.
 */
export type MeterFlagRow = {
  deviceId: number;
  at: Date;
  kind: MeterFlagKind;
  meter: string;
  previousValue: number | null;
  value: number | null;
  detail: MeterFlagDetail;
};

/**
 * A step may be this many times what the rated speed prints in the time between the reads: a
 * large page counted as two small ones, both sides of a duplex sheet counted, a clock that is
 * a little off on either side.
 */
const SPEED_SLACK = 2;
/** Pages any step may add whatever the time between the reads (reads seconds apart, a page in flight). */
const STEP_SLACK_PAGES = 100;

/** The most pages a device rated at `ppm` could add to a meter in `minutes`. */
export const stepLimit = (minutes: number, ppm: number) => Math.ceil(ppm * SPEED_SLACK * Math.max(minutes, 0)) + STEP_SLACK_PAGES;

const FLAGGED = new Set<string>(FLAGGED_METERS);
const METERS = COUNTER_FIELDS.filter(([field]) => FLAGGED.has(field));

/**
 * The flags of reading `k` taken at `at`, against `d` before the reading is applied to it.
 * `ppm` is the device's rated speed as its reading gives it (the models pack knows it from the model's
 * name for some makers), else DEFAULT_RATED_PPM.
 */
export function meterFlagsOf(d: DeviceState, k: ReadingCounters, at: Date, ppm: number = DEFAULT_RATED_PPM): MeterFlagRow[] {
  const minutes = (at.getTime() - d.refreshedAt.getTime()) / 60_000;
  const limit = stepLimit(minutes, ppm);
  const jumps: { meter: string; previousValue: number; value: number }[] = [];
  const backs: { meter: string; previousValue: number; value: number }[] = [];
  for (const [meter, column] of METERS) {
    const value = k[meter];
    const previousValue = d[column];
    if (value === null || previousValue === null) continue;
    if (value < previousValue) backs.push({ meter, previousValue, value });
    else if (value - previousValue > limit) jumps.push({ meter, previousValue, value });
  }
  const flags: MeterFlagRow[] = [];
  const flag = (kind: MeterFlagKind, [first, ...others]: { meter: string; previousValue: number; value: number }[], detail: MeterFlagDetail = {}) =>
    flags.push({ deviceId: d.id, at, kind, ...first, detail: others.length ? { ...detail, others } : detail });
  if (jumps.length) flag('JUMP', jumps, { minutes: Math.round(minutes * 10) / 10, limit });
  if (backs.length) flag('BACKWARDS', backs);
  // The agent finds the split that does not add up (the reading's splitMismatch, also kept on the
  // device); a flag is written when it appears or its difference changes, not at every poll.
  const split = k.splitMismatch;
  const before = d.splitMismatch;
  if (split && (!before || before.total - before.monoPlusColor !== split.total - split.monoPlusColor)) {
    flags.push({ deviceId: d.id, at, kind: 'SPLIT', meter: 'total', previousValue: null, value: split.total, detail: { monoPlusColor: split.monoPlusColor } });
  }
  return flags;
}
