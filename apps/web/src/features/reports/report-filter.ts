import { DEFAULT_PERIOD, INSTALLED_SINCE, PERIOD_TYPES, periodDays, REPORTS, type PeriodType, type ReportCode } from '@pagewatch/contracts/reports';

/** The report screen's filter (spec section 3): what the form edits and what is kept on leaving. */
export type ReportFilterValues = {
  title: string;
  periodType: PeriodType;
  /** Days as YYYY-MM-DD, UTC. */
  from: string;
  to: string;
  location: number[];
  printerType: string[];
  colorType: string[];
  paperFormat: string[];
};

/** What the data calls and the download take: the filter without title and period type. */
export type ReportRequest = Omit<ReportFilterValues, 'title' | 'periodType' | 'from' | 'to'> & { from?: string; to?: string };

export const todayUtc = (now = new Date()) => now.toISOString().slice(0, 10);

/** The earliest day a report's date pickers offer (spec section 9). */
export const MIN_DAY = INSTALLED_SINCE;

const periodOf = (code: ReportCode) => REPORTS[code].period;

/**
 * The default filter (spec section 4): the last month. Installed consumables have no period:
 * FREE_CHOICE with today's dates, which the request leaves out.
 */
export function defaultFilter(code: ReportCode, title: string, today: string): ReportFilterValues {
  const base = { title, location: [], printerType: [], colorType: [], paperFormat: [] };
  if (!periodOf(code)) return { ...base, periodType: 'FREE_CHOICE', from: today, to: today };
  return { ...base, periodType: DEFAULT_PERIOD, ...periodDays(DEFAULT_PERIOD, today) };
}

/** Choosing a period type sets from and to; FREE_CHOICE keeps the dates there are. */
export function withPeriodType(f: ReportFilterValues, periodType: PeriodType, today: string): ReportFilterValues {
  return periodType === 'FREE_CHOICE' ? { ...f, periodType } : { ...f, periodType, ...periodDays(periodType, today) };
}

/** Editing a date by hand switches to FREE_CHOICE; from later than to swaps them. */
export function withDate(f: ReportFilterValues, which: 'from' | 'to', day: string): ReportFilterValues {
  const next = { ...f, periodType: 'FREE_CHOICE' as const, [which]: day };
  return next.from > next.to ? { ...next, from: next.to, to: next.from } : next;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const strings = (v: unknown, max: number) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.length <= max) : []);

/**
 * A kept filter, made whole again for today: a named period's days are those of today (last
 * month is always the last month); a free choice keeps its days; installed consumables are
 * forced to today. Anything malformed falls back to the default.
 */
export function restoreFilter(saved: unknown, code: ReportCode, title: string, today: string): ReportFilterValues {
  const d = defaultFilter(code, title, today);
  if (!saved || typeof saved !== 'object') return d;
  const s = saved as Record<string, unknown>;
  const kept: ReportFilterValues = {
    ...d,
    title: typeof s.title === 'string' && s.title.trim() ? s.title.slice(0, 250) : title,
    location: Array.isArray(s.location) ? s.location.filter((x): x is number => Number.isInteger(x) && x > 0) : [],
    printerType: strings(s.printerType, 20),
    colorType: strings(s.colorType, 20),
    paperFormat: strings(s.paperFormat, 20),
  };
  if (!periodOf(code)) return kept;
  const type = PERIOD_TYPES.find((p) => p === s.periodType) ?? d.periodType;
  if (type !== 'FREE_CHOICE') return withPeriodType(kept, type, today);
  const day = (v: unknown) => (typeof v === 'string' && DAY.test(v) && v >= MIN_DAY ? v : null);
  const from = day(s.from);
  const to = day(s.to);
  return from && to ? withDate(withDate({ ...kept, from, to }, 'from', from), 'to', to) : kept;
}

/** The request of a filter: installed consumables carry no from or to. */
export function requestOf(f: ReportFilterValues, code: ReportCode): ReportRequest {
  const { location, printerType, colorType, paperFormat } = f;
  return periodOf(code) ? { from: f.from, to: f.to, location, printerType, colorType, paperFormat } : { location, printerType, colorType, paperFormat };
}

/** The data call's query string (spec section 7: arrays as repeated parameters). */
export function requestQuery(r: ReportRequest): string {
  const p = new URLSearchParams();
  for (const [key, value] of Object.entries(r)) {
    if (Array.isArray(value)) for (const v of value) p.append(key, String(v));
    else if (value !== undefined) p.set(key, value);
  }
  return p.toString();
}

const storageKey = (code: ReportCode) => `pagewatch.reportFilter.${code}`;

/** What the screen keeps of a report on leaving: the filter and the request last applied. */
export type KeptReport = { filter: ReportFilterValues; applied: ReportRequest | null };

function readJson(text: string | null): unknown {
  try {
    return JSON.parse(text ?? 'null');
  } catch {
    return null;
  }
}

export function loadKept(code: ReportCode, title: string, today: string): KeptReport {
  const saved = readJson(localStorage.getItem(storageKey(code))) as { filter?: unknown; applied?: unknown } | null;
  const filter = restoreFilter(saved?.filter, code, title, today);
  // The last results come back with the same filter, for today.
  return { filter, applied: saved?.applied ? requestOf(filter, code) : null };
}

export function saveKept(code: ReportCode, kept: KeptReport) {
  try {
    localStorage.setItem(storageKey(code), JSON.stringify(kept));
  } catch {
    // Storage full or off: the screen works, it only forgets.
  }
}

/**
 * The columns of a report's file from the console: the grid's visible ones in their order (spec
 * section 7), then those the report's file always holds (REPORTS `fileAlwaysColumns`: a meter
 * read's every meter and its read days, issue 54) that the grid hides.
 */
export function exportColumns(code: ReportCode, grid: { columnOrder: string[]; hidden: string[] }): string[] {
  const visible = grid.columnOrder.filter((f) => !grid.hidden.includes(f));
  return [...visible, ...(REPORTS[code].fileAlwaysColumns ?? []).filter((f) => !visible.includes(f))];
}
