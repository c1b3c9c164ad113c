import i18n from 'i18next';

/** Spec section 9: dates show as dd.MM.yyyy HH:mm:ss in both languages, a calendar day (licences) as dd.MM.yyyy. */

type DateInput = string | number | Date | null | undefined;

const pad = (n: number) => String(n).padStart(2, '0');
/** A bare day (2026-11-22) is that day here, not UTC's midnight; anything else is a moment. */
const toDate = (value: string | number | Date): Date => {
  const day = typeof value === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  return day ? new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])) : new Date(value);
};

// Written by hand, not with dayjs: the footer (in the shell, which starts light) writes a day too.
const formatWith = (value: DateInput, withTime: boolean): string => {
  if (value === null || value === undefined || value === '') return '';
  const d = toDate(value);
  if (Number.isNaN(d.getTime())) return String(value);
  const day = `${pad(d.getDate())}.${pad(d.getMonth() + 1)}.${d.getFullYear()}`;
  return withTime ? `${day} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}` : day;
};

/** A moment as the spec writes it (01.12.2026 22:08:15); '' for none, an unreadable value as it came. */
export const formatDateTime = (value: DateInput): string => formatWith(value, true);
/** The time of a moment today (22:08:15). */
export const formatTime = (value: DateInput): string => formatWith(value, true).slice(11);
/** A calendar day (01.12.2026). */
export const formatDay = (value: DateInput): string => formatWith(value, false);

/** A typed day: dd.MM.yyyy (as shown; one-digit day and month too) or YYYY-MM-DD, as YYYY-MM-DD; null when it is no day. */
export function parseDay(input: string): string | null {
  const shown = /^\s*(\d{1,2})\.(\d{1,2})\.(\d{4})\s*$/.exec(input);
  const iso = shown ? `${shown[3]}-${shown[2].padStart(2, '0')}-${shown[1].padStart(2, '0')}` : input.trim();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(iso)) return null;
  const d = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(iso) ? iso : null;
}

/**
 * One formatter per language, made once: V8 builds a new one on every `toLocaleString()` call,
 * which a grid of counters pays per cell (13 ms of the devices grid's first page in Chromium's
 * profile). Grouping always, so 5 000 and 20 499 (5,000 and 20,499) group alike: Russian's own
 * rule leaves four digits ungrouped.
 */
const NUMBER_FORMATS = new Map<string, Intl.NumberFormat>();
const numberFormat = (lang: string): Intl.NumberFormat => {
  let f = NUMBER_FORMATS.get(lang);
  if (!f) NUMBER_FORMATS.set(lang, (f = new Intl.NumberFormat(lang, { useGrouping: 'always', maximumFractionDigits: 3 })));
  return f;
};

/** The reader's language as the formats know it: the console's, English before it is set. */
const language = (): string => (i18n.language?.startsWith('ru') ? 'ru' : 'en');

/** A number in the console's language, the one way every screen writes one. */
export const formatNumber = (v: number, lang: string = language()): string => numberFormat(lang).format(v);
