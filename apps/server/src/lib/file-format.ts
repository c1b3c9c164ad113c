import type { ColumnType } from '@pagewatch/contracts/list';
import { columnTitleKey } from '@pagewatch/contracts/messages';
import type { FileHeaders } from '@pagewatch/contracts/reports';
import { translate, type Lang } from '../i18n/messages.ts';

/** A column of an exported file: its attachment name, its header, its type (a day is a date without time). */
export type FileColumn = { key: string; title: string; type: ColumnType; day: boolean };

/** Columns of a file with their headers: the titles the user sees in `lang`, or the attachment names (for programs). */
export function fileColumns(columns: readonly { key: string; type: ColumnType; day?: boolean }[], lang: Lang, headers: FileHeaders = 'titles'): FileColumn[] {
  return columns.map((c) => ({ key: c.key, type: c.type, day: c.day ?? false, title: headers === 'codes' ? c.key : translate(lang, columnTitleKey(c.key)) }));
}

/**
 * How a language writes a file (issue 43). Excel opens a CSV with the list separator and the
 * date and number formats of the reader's regional settings: in Russian ones the separator is
 * `;`, the decimal mark a comma and dates dd.mm.yyyy, so a comma-separated file opened all its
 * columns as one. Times are UTC, as the reports' periods are.
 */
export type FileStyle = {
  separator: string;
  decimal: string;
  /** A day (YYYY-MM-DD) and a time (an ISO timestamp) as CSV text. */
  day: (iso: string) => string;
  time: (iso: string) => string;
  /** Excel's display formats of typed date cells (the cells hold real dates). */
  dayFormat: string;
  timeFormat: string;
};

const parts = (iso: string) => /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?/.exec(iso);

export const FILE_STYLES: Record<Lang, FileStyle> = {
  en: {
    separator: ',',
    decimal: '.',
    day: (iso) => iso.slice(0, 10),
    // ISO 8601 with a space between day and time, as spreadsheets read it.
    time: (iso) => {
      const m = parts(iso);
      return m ? `${m[1]}-${m[2]}-${m[3]} ${m[4] ?? '00'}:${m[5] ?? '00'}` : iso;
    },
    dayFormat: 'yyyy-mm-dd',
    timeFormat: 'yyyy-mm-dd hh:mm',
  },
  ru: {
    separator: ';',
    decimal: ',',
    day: (iso) => {
      const m = parts(iso);
      return m ? `${m[3]}.${m[2]}.${m[1]}` : iso;
    },
    time: (iso) => {
      const m = parts(iso);
      return m ? `${m[3]}.${m[2]}.${m[1]} ${m[4] ?? '00'}:${m[5] ?? '00'}` : iso;
    },
    dayFormat: 'dd.mm.yyyy',
    timeFormat: 'dd.mm.yyyy hh:mm',
  },
};

/**
 * An XLSX sheet's name from a title: Excel refuses more than 31 characters, any of []:*?/\ and
 * an apostrophe at either end ("Установленные расходные материалы" is 33).
 */
export function sheetName(title: string): string {
  const clean = title.replace(/[[\]:*?/\\]/g, ' ').replace(/^'+|'+$/g, '').trim() || 'Sheet1';
  return clean.length <= 31 ? clean : `${clean.slice(0, 30).trimEnd()}…`;
}
