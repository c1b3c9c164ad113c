import { PassThrough } from 'node:stream';
import { drained, type RowFeed } from './row-pages.ts';

/** A field as spreadsheets read it (see `csv`). */
function cell(v: unknown): string {
  if (v == null) return '';
  let s = String(v);
  if (typeof v === 'string' && /^[=+\-@]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
const line = (columns: readonly string[], r: Record<string, unknown>) => columns.map((c) => cell(r[c])).join(',');

/**
 * CSV as spreadsheets read it: UTF-8 with a byte order mark, comma-separated, RFC 4180 quoting
 * (a field with a comma, quote or line break is quoted, quotes doubled), and a text cell that
 * starts with =, +, - or @ prefixed with ' so that a spreadsheet does not run it as a formula.
 */
export function csv(columns: readonly string[], rows: readonly Record<string, unknown>[], headers: readonly string[] = columns): string {
  return `\uFEFF${[headers.map(cell).join(','), ...rows.map((r) => line(columns, r))].join('\r\n')}\r\n`;
}

/** The same CSV written as its rows come, a page at a time, waiting while the reader is behind (issue 39); `headers` head the columns (their names where not given). */
export function csvStream(columns: readonly string[], feed: RowFeed, headers: readonly string[] = columns): PassThrough {
  const out = new PassThrough();
  void (async () => {
    out.write(`\uFEFF${headers.map(cell).join(',')}\r\n`);
    await feed(async (rows) => {
      out.write(rows.map((r) => `${line(columns, r)}\r\n`).join(''));
      await drained(out);
    });
    out.end();
  })().catch((err: unknown) => out.destroy(err as Error));
  return out;
}
