import { PassThrough } from 'node:stream';
import { drained, feedOf, type RowFeed } from './row-pages.ts';
import { sheetName, type FileColumn, type FileStyle } from './file-format.ts';
import { ZipStream } from './zip-stream.ts';

/** Characters XML 1.0 cannot hold (a control character in a device's name would make the file unreadable). */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const xml = (s: string) => s.replace(NOT_XML, '').replace(/[&<>"]/g, (ch) => ESCAPES[ch]!);

/** A column's letters (0 → A, 26 → AA). */
function letters(i: number): string {
  let s = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** The cell styles of styles.xml, by their index: the header's bold, a day's and a time's display format. */
const STYLE = { header: 1, day: 2, time: 3 } as const;
/** Excel's day number of 1970-01-01 (its days count from 1899-12-30). */
const EPOCH_DAY = 25569;
const DAY_MS = 86_400_000;

/** A cell as Excel types it: numbers as numbers, ISO times and days as dates (UTC), the rest as inline text; nothing for no value. */
function cell(ref: string, v: unknown, c: FileColumn): string {
  if (v == null) return '';
  if (c.type === 'number') {
    const n = Number(v);
    return Number.isFinite(n) ? `<c r="${ref}"><v>${n}</v></c>` : '';
  }
  if (c.type === 'boolean') return `<c r="${ref}" t="b"><v>${v ? 1 : 0}</v></c>`;
  if (c.type === 'date') {
    const ms = Date.parse(c.day ? `${String(v).slice(0, 10)}T00:00:00Z` : String(v));
    return Number.isFinite(ms) ? `<c r="${ref}" s="${c.day ? STYLE.day : STYLE.time}"><v>${ms / DAY_MS + EPOCH_DAY}</v></c>` : '';
  }
  return `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${xml(String(v))}</t></is></c>`;
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** The parts around the sheet: content types, relationships, the workbook (with the filter's name Excel expects) and the styles. */
function bookParts(title: string, columnCount: number, style: FileStyle): [string, string][] {
  const range = `'${xml(title).replace(/'/g, "''")}'!$A$1:$${letters(columnCount - 1)}$1`;
  return [
    ['[Content_Types].xml', `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`],
    ['_rels/.rels', `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`],
    ['xl/workbook.xml', `${XML_HEAD}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><bookViews><workbookView/></bookViews><sheets><sheet name="${xml(title)}" sheetId="1" r:id="rId1"/></sheets><definedNames><definedName name="_xlnm._FilterDatabase" localSheetId="0" hidden="1">${range}</definedName></definedNames></workbook>`],
    ['xl/_rels/workbook.xml.rels', `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/styles" Target="styles.xml"/></Relationships>`],
    ['xl/styles.xml', `${XML_HEAD}<styleSheet xmlns="${MAIN}"><numFmts count="2"><numFmt numFmtId="164" formatCode="${xml(style.dayFormat)}"/><numFmt numFmtId="165" formatCode="${xml(style.timeFormat)}"/></numFmts><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`],
  ];
}

/**
 * An XLSX of one sheet named `title` (cut to what Excel takes), written as a stream: a header
 * row of the columns' titles, frozen and with filters; typed cells (numbers, dates shown in the
 * style's format, issue 43; text inline, so no table of strings is kept). The rows come a page
 * at a time (`RowFeed`); each page's XML goes through zlib while the reader keeps up, and the
 * writer waits while it is behind (issue 39: the file is never whole in memory). Written by hand
 * (issue 53): exceljs' streaming writer made 1.4 MB of file per CPU-second, which on a busy
 * machine is the 68 KB/s the issue measured, and kept every row's objects until the sheet ended.
 */
export function xlsxStream(title: string, columns: readonly FileColumn[], feed: RowFeed, style: FileStyle): PassThrough {
  const out = new PassThrough();
  const name = sheetName(title);
  const refs = columns.map((_, i) => letters(i));
  const last = refs.at(-1) ?? 'A';
  void (async () => {
    const zip = new ZipStream(out);
    for (const [part, text] of bookParts(name, Math.max(1, columns.length), style)) await zip.entry(part, (write) => write(text));
    await zip.entry('xl/worksheets/sheet1.xml', async (write) => {
      const widths = columns.map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${Math.max(12, c.title.length + 2)}" customWidth="1"/>`).join('');
      const header = columns.map((c, i) => `<c r="${refs[i]}1" s="${STYLE.header}" t="inlineStr"><is><t xml:space="preserve">${xml(c.title)}</t></is></c>`).join('');
      await write(`${XML_HEAD}<worksheet xmlns="${MAIN}" xmlns:r="${REL}"><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft"/></sheetView></sheetViews><sheetFormatPr defaultRowHeight="15"/>${widths ? `<cols>${widths}</cols>` : ''}<sheetData><row r="1">${header}</row>`);
      let n = 1;
      await feed(async (rows) => {
        let text = '';
        for (const r of rows) {
          n++;
          text += `<row r="${n}">`;
          for (let i = 0; i < columns.length; i++) text += cell(`${refs[i]}${n}`, r[columns[i]!.key], columns[i]!);
          text += '</row>';
        }
        await write(text);
        await drained(out);
      });
      await write(`</sheetData><autoFilter ref="A1:${last}1"/></worksheet>`);
    });
    await zip.end();
  })().catch((err: unknown) => out.destroy(err as Error));
  return out;
}

/** The same file in memory (e-mail attachments). */
export async function xlsxBuffer(title: string, columns: readonly FileColumn[], rows: readonly Record<string, unknown>[], style: FileStyle): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of xlsxStream(title, columns, feedOf(rows), style)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
