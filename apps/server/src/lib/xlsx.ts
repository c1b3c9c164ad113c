import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { drained, feedOf, type RowFeed } from './row-pages.ts';

/** A column of a sheet: its row field, its header text (the field where none) and its cells' type. */
export type SheetColumn = { key: string; header?: string; type: 'string' | 'number' | 'date' | 'boolean'; day?: boolean };

/** A cell as Excel types it: numbers as numbers, ISO times and days as dates (UTC), the rest as text. */
function cell(v: unknown, c: SheetColumn): ExcelJS.CellValue {
  if (v == null) return null;
  if (c.type === 'number') return Number(v);
  if (c.type === 'boolean') return Boolean(v);
  if (c.type === 'date') return new Date(c.day ? `${String(v)}T00:00:00Z` : String(v));
  return String(v);
}

/**
 * An XLSX of one sheet, written as a stream (exceljs' streaming writer: each row is written out
 * as it is added): a header row of the column names, frozen and with filters; typed cells. The
 * rows come a page at a time (`RowFeed`); after each page the writer waits while the reader is
 * behind (the file is never whole in memory) and gives the event loop back (issue 39: a sheet of
 * 60,000 rows written in one loop held the server for seconds).
 */
export function xlsxStream(sheet: string, columns: readonly SheetColumn[], feed: RowFeed): PassThrough {
  const out = new PassThrough();
  void (async () => {
    const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
    const ws = book.addWorksheet(sheet.slice(0, 31).replace(/[[\]:*?/\\]/g, ' '), { views: [{ state: 'frozen', ySplit: 1 }] });
    ws.columns = columns.map((c) => ({ header: c.header ?? c.key, key: c.key, width: Math.max(12, (c.header ?? c.key).length + 2), style: c.type === 'date' ? { numFmt: c.day ? 'dd.mm.yyyy' : 'dd.mm.yyyy hh:mm:ss' } : {} }));
    ws.getRow(1).font = { bold: true };
    ws.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: Math.max(1, columns.length) } };
    await feed(async (rows) => {
      for (const r of rows) ws.addRow(columns.map((c) => cell(r[c.key], c))).commit();
      await drained(out);
    });
    ws.commit();
    await book.commit();
  })().catch((err: unknown) => out.destroy(err as Error));
  return out;
}

/** The same file in memory (e-mail attachments). */
export async function xlsxBuffer(sheet: string, columns: readonly SheetColumn[], rows: readonly Record<string, unknown>[]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of xlsxStream(sheet, columns, feedOf(rows))) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
