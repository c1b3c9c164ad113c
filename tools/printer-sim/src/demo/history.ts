import { createHash } from 'node:crypto';
import type { Reading, ReadingSupply } from '@pagewatch/contracts/reading';
import { createRng, hash32 } from '../rng.ts';

const DAY_MS = 86_400_000;

export type HistoryOptions = {
  /** Days before `today` to fill (the reading of today itself is the agent's). */
  days: number;
  today: Date;
  seed: number;
  /** Average pages on a working day. */
  pagesPerDay: number;
  /** Pages one unit of each supply lasts, by supply index; supplies not listed keep their level. */
  lifePages: Map<number, number>;
};

/** A stable id for a reading of one device on one day, so loading the history twice stores it once. */
export function historyReadingId(serial: string, date: string): string {
  const h = createHash('sha1').update(`pagewatch-demo-history|${serial}|${date}`).digest('hex');
  // Shaped as an RFC 4122 version 5 UUID.
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function supplyAt(s: ReadingSupply, percent: number): ReadingSupply {
  const p = Math.max(0, Math.min(100, Math.round(percent)));
  const level = s.maxCapacity !== null && s.maxCapacity > 0 ? Math.round((s.maxCapacity * p) / 100) : p;
  return { ...s, level, percent: p, levelState: null };
}

const scaled = (value: number | null, factor: number): number | null => (value === null ? null : Math.max(0, Math.round(value * factor)));

/**
 * A year (or `days`) of daily readings leading up to `current`, oldest first: counters that grow
 * by a working-week rhythm and end at today's values (starting when the printer printed its
 * first page, if that is within the period), supplies that drain with the pages and were
 * replaced when they ran out. Synthetic but consistent, so reports and charts have data.
 */
export function backfillReadings(current: Reading, options: HistoryOptions): Reading[] {
  const rng = createRng(hash32(options.seed, ...[...(current.serialNumber ?? 'x')].map((c) => c.charCodeAt(0))));
  const total = current.counters.total ?? 0;
  const colorShare = total > 0 && current.counters.color !== null ? current.counters.color / total : 0;
  const percents = new Map(current.supplies.map((s) => [s.index, s.percent]));
  const out: Reading[] = [];
  let counter = total;
  for (let back = 1; back <= options.days; back++) {
    const day = new Date(Date.UTC(options.today.getUTCFullYear(), options.today.getUTCMonth(), options.today.getUTCDate()) - back * DAY_MS);
    // Pages printed on the day after this one are taken off, walking back in time.
    const next = new Date(day.getTime() + DAY_MS);
    const weekend = next.getUTCDay() === 0 || next.getUTCDay() === 6;
    const pages = Math.round(options.pagesPerDay * (weekend ? 0.1 : 0.6 + rng.next() * 0.8));
    // Before its first page the printer was not there yet: no readings.
    if (counter - pages <= 0) break;
    counter -= pages;
    for (const s of current.supplies) {
      const life = options.lifePages.get(s.index);
      const p = percents.get(s.index);
      if (!life || p === null || p === undefined) continue;
      const used = s.colorant && s.colorant !== 'black' ? pages * colorShare : pages;
      let before = p + (used / life) * 100;
      // Above full going back in time: the unit was new that day and an old, empty one came before.
      if (before > 100) before = 1 + rng.next() * 5;
      percents.set(s.index, before);
    }
    const factor = total > 0 ? counter / total : 0;
    const c = current.counters;
    out.push({
      ...current,
      readAt: new Date(day.getTime() + 12 * 3_600_000).toISOString(),
      status: { deviceStatus: 'running', printerStatus: 'idle', errors: [], errorStateHex: '0000' },
      counters: {
        ...c,
        total: counter,
        powerOn: null,
        mono: scaled(c.mono, factor), color: scaled(c.color, factor), a3: scaled(c.a3, factor), a4: scaled(c.a4, factor),
        a3Bw: scaled(c.a3Bw, factor), a3Color: scaled(c.a3Color, factor), a4Bw: scaled(c.a4Bw, factor), a4Color: scaled(c.a4Color, factor),
        copies: scaled(c.copies, factor), scans: scaled(c.scans, factor), fax: scaled(c.fax, factor), duplex: scaled(c.duplex, factor),
        vendor: c.vendor.map((v) => ({ ...v, value: Math.max(0, Math.round(v.value * factor)) })),
      },
      supplies: current.supplies.map((s) => {
        const p = percents.get(s.index);
        return p === null || p === undefined || !options.lifePages.has(s.index) ? s : supplyAt(s, p);
      }),
      problems: [],
    });
  }
  return out.reverse();
}
