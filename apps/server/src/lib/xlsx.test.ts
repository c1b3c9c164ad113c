import { once } from 'node:events';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { FILE_STYLES, type FileColumn } from './file-format.ts';
import type { RowFeed } from './row-pages.ts';
import { xlsxBuffer, xlsxStream } from './xlsx.ts';

const COLUMNS: FileColumn[] = [
  { key: 'name', title: 'Имя <&> "x"', type: 'string', day: false },
  { key: 'pages', title: 'Pages', type: 'number', day: false },
  { key: 'day', title: 'Day', type: 'date', day: true },
  { key: 'at', title: 'At', type: 'date', day: false },
  { key: 'ok', title: 'OK', type: 'boolean', day: false },
];

async function sheetOf(bytes: Buffer) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  return book.worksheets[0]!;
}

/** The project's own XLSX writer (issue 53), read back by exceljs as a spreadsheet program reads it. */
describe('xlsxStream', () => {
  it('writes a sheet with a frozen, filtered, bold header row and typed cells, text as it was', async () => {
    const rows = [
      { name: 'A\u0001B <i>&amp;</i> ', pages: 12.5, day: '2026-11-01', at: '2026-11-01T10:20:30.000Z', ok: true },
      { name: null, pages: null, day: null, at: null, ok: false },
      ...Array.from({ length: 1_200 }, (_, i) => ({ name: `device ${i}`, pages: i, day: '2026-12-31', at: '2026-12-31T23:59:59.000Z', ok: null })),
    ];
    const sheet = await sheetOf(await xlsxBuffer("Установленные расходные материалы", COLUMNS, rows, FILE_STYLES.ru));
    expect(sheet.name).toBe('Установленные расходные матери…');
    expect(sheet.rowCount).toBe(rows.length + 1);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.autoFilter).toBe('A1:E1');
    expect(sheet.getRow(1).values).toEqual([undefined, 'Имя <&> "x"', 'Pages', 'Day', 'At', 'OK']);
    expect(sheet.getRow(1).getCell(1).font).toMatchObject({ bold: true });
    // A control character XML cannot hold is left out; the rest is the text as it was.
    expect(sheet.getRow(2).values).toEqual([undefined, 'AB <i>&amp;</i> ', 12.5, new Date('2026-11-01T00:00:00Z'), new Date('2026-11-01T10:20:30Z'), true]);
    expect(sheet.getRow(2).getCell(3).numFmt).toBe('dd.mm.yyyy');
    expect(sheet.getRow(2).getCell(4).numFmt).toBe('dd.mm.yyyy hh:mm');
    expect(sheet.getRow(3).values).toEqual([undefined, undefined, undefined, undefined, undefined, false]);
    expect(sheet.getRow(rows.length + 1).values).toEqual([undefined, 'device 1199', 1199, new Date('2026-12-31T00:00:00Z'), new Date('2026-12-31T23:59:59Z')]);
  });

  it('reads no further rows while its reader is behind, and goes on when it reads', async () => {
    let pages = 0;
    const feed: RowFeed = async (emit) => {
      for (let p = 0; p < 2_000; p++) {
        pages++;
        await emit(Array.from({ length: 500 }, (_, i) => ({ name: `row ${p}-${i} ${'x'.repeat(40)}`, pages: p * 500 + i, day: null, at: null, ok: null })));
      }
    };
    const out = xlsxStream('Big', COLUMNS, feed, FILE_STYLES.en);
    // Nobody reads yet: the writer stops once the stream's buffer is full (and zlib's are), and
    // stays stopped. Stopped: no page for 40 timer turns in a row (zlib works on its own threads;
    // code that did not wait would be at its 2,000th page by then, however slow the machine).
    const tick = () => new Promise((r) => setTimeout(r, 5));
    while (out.readableLength < out.readableHighWaterMark) await tick();
    for (let still = 0, seen = pages; still < 40; still = pages === seen ? still + 1 : 0, seen = pages) await tick();
    expect(pages).toBeLessThan(50);
    expect(out.readableLength).toBeLessThan(1_000_000);
    let bytes = 0;
    out.on('data', (chunk: Buffer) => (bytes += chunk.length));
    await once(out, 'end');
    expect(pages).toBe(2_000);
    expect(bytes).toBeGreaterThan(1_000_000);
  });

  it('stops reading rows when its reader goes away', async () => {
    let pages = 0;
    const feed: RowFeed = async (emit) => {
      for (let p = 0; p < 2_000; p++) {
        pages++;
        await emit(Array.from({ length: 500 }, (_, i) => ({ name: `row ${p}-${i}`, pages: i, day: null, at: null, ok: null })));
      }
    };
    const out = xlsxStream('Gone', COLUMNS, feed, FILE_STYLES.en);
    await once(out, 'data');
    out.destroy();
    await once(out, 'close');
    const at = pages;
    for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 5));
    expect(pages).toBe(at);
    expect(pages).toBeLessThan(50);
  });
});
