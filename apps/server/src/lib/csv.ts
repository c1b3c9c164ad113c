import { PassThrough } from 'node:stream';
import { drained, type RowFeed } from './row-pages.ts';
import type { FileColumn, FileStyle } from './file-format.ts';

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v));

/** A value as text in the style's language: decimal mark, days and times. */
function text(v: unknown, c: FileColumn, style: FileStyle): string {
  if (c.type === 'number' && typeof v === 'number') return String(v).replace('.', style.decimal);
  if (c.type === 'date') return c.day ? style.day(iso(v)) : style.time(iso(v));
  return String(v);
}

/** A field as spreadsheets read it (see `csv`). */
function cell(v: unknown, c: FileColumn, style: FileStyle): string {
  if (v == null) return '';
  let s = text(v, c, style);
  if (typeof v === 'string' && /^[=+\-@]/.test(s)) s = `'${s}`;
  return s.includes(style.separator) || /["\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
const line = (columns: readonly FileColumn[], r: Record<string, unknown>, style: FileStyle) => columns.map((c) => cell(r[c.key], c, style)).join(style.separator);
const head = (columns: readonly FileColumn[], style: FileStyle) => `\uFEFF${columns.map((c) => cell(c.title, { ...c, type: 'string' }, style)).join(style.separator)}\r\n`;

/**
 * CSV as spreadsheets read it: UTF-8 with a byte order mark (Excel reads Cyrillic only with it),
 * the separator, decimal mark and date formats of the reader's language (`FileStyle`, issue 43),
 * a header row of the columns' titles, RFC 4180 quoting (a field with the separator, a quote or
 * a line break is quoted, quotes doubled), and a text cell that starts with =, +, - or @
 * prefixed with ' so that a spreadsheet does not run it as a formula.
 */
export function csv(columns: readonly FileColumn[], rows: readonly Record<string, unknown>[], style: FileStyle): string {
  return head(columns, style) + rows.map((r) => `${line(columns, r, style)}\r\n`).join('');
}

/** The same CSV written as its rows come, a page at a time, waiting while the reader is behind (issue 39). */
export function csvStream(columns: readonly FileColumn[], feed: RowFeed, style: FileStyle): PassThrough {
  const out = new PassThrough();
  void (async () => {
    out.write(head(columns, style));
    await feed(async (rows) => {
      out.write(rows.map((r) => `${line(columns, r, style)}\r\n`).join(''));
      await drained(out);
    });
    out.end();
  })().catch((err: unknown) => out.destroy(err as Error));
  return out;
}
