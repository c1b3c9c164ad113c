import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { drained, feedOf, type RowFeed } from './row-pages.ts';
import { sheetName, type FileColumn, type FileStyle } from './file-format.ts';

/** A cell as Excel types it: numbers as numbers, ISO times and days as dates (UTC), the rest as text. */
function cell(v: unknown, c: FileColumn): ExcelJS.CellValue {
  if (v == null) return null;
  if (c.type === 'number') return Number(v);
  if (c.type === 'boolean') return Boolean(v);
  if (c.type === 'date') return new Date(c.day ? `${String(v)}T00:00:00Z` : String(v));
  return String(v);
}

/**
 * An XLSX of one sheet named `title` (cut to what Excel takes), written as a stream (exceljs'
 * streaming writer: each row is written out as it is added): a header row of the columns' titles,
 * frozen and with filters; typed cells, dates shown in the style's format (issue 43). The
 * rows come a page at a time (`RowFeed`); after each page the writer waits while the reader is
 * behind (the file is never whole in memory) and gives the event loop back (issue 39: a sheet of
 * 60,000 rows written in one loop held the server for seconds).
 */
export function xlsxStream(title: string, columns: readonly FileColumn[], feed: RowFeed, style: FileStyle): PassThrough {
  const out = new PassThrough();
  void (async () => {
    const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
    const ws = book.addWorksheet(sheetName(title), { views: [{ state: 'frozen', ySplit: 1 }] });
    ws.columns = columns.map((c) => ({ header: c.title, key: c.key, width: Math.max(12, c.title.length + 2), style: c.type === 'date' ? { numFmt: c.day ? style.dayFormat : style.timeFormat } : {} }));
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
export async function xlsxBuffer(title: string, columns: readonly FileColumn[], rows: readonly Record<string, unknown>[], style: FileStyle): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of xlsxStream(title, columns, feedOf(rows), style)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
