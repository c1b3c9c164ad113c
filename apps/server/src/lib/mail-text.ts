import { Parser } from 'htmlparser2';

/** Tags that end a line of their own (and, for paragraphs and headings, leave a blank one). */
const BLOCK = new Set(['p', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'ul', 'ol']);
const SPACED = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'ul', 'ol']);
const SKIPPED = new Set(['script', 'style', 'head', 'title']);
const CELL = new Set(['td', 'th']);

/** A cell that is a number (a count, a level, a day): right-aligned in its column. */
const NUMBER = /^[-−+]?[\d\s.,\u00a0\u202f]*\d[\d\s.,\u00a0\u202f]*%?$/;
const width = (s: string) => [...s].length;

/**
 * Rows of cells as plain text in aligned columns (issue 54): each column as wide as its widest
 * cell, two spaces between columns, numbers right-aligned, text left-aligned; a short row leaves
 * its last columns empty. The text part of every mail with a table (the supplier's order, the
 * digests) is written by it.
 */
export function alignColumns(rows: string[][]): string {
  const widths: number[] = [];
  const numeric: boolean[] = [];
  rows.forEach((row, r) => row.forEach((cell, i) => {
    widths[i] = Math.max(widths[i] ?? 0, width(cell));
    // A header row (the first) does not decide how a column aligns.
    if (r > 0 && cell !== '') numeric[i] = (numeric[i] ?? true) && NUMBER.test(cell);
  }));
  return rows
    .map((row) => row
      .map((cell, i) => (numeric[i] ? ' '.repeat(widths[i]! - width(cell)) + cell : cell + ' '.repeat(widths[i]! - width(cell))))
      .join('  ')
      .replace(/\s+$/, ''))
    .join('\n');
}

/**
 * The plain-text part of a mail from its HTML (an already cleaned body): paragraphs and list items
 * on lines of their own, a link as its text followed by its address in angle brackets (unless the
 * text is the address), a rule as a line of dashes. Mail clients that read no HTML, and filters
 * that weigh a mail without a text part as spam, get the same message.
 */
export function htmlToText(html: string): string {
  let out = '';
  const links: (string | null)[] = [];
  let linkStart = 0;
  let skipping = 0;
  let pre = 0;
  // Tables being read: their rows of cells, where in `out` each began and where its open cell did;
  // a cell's text is taken out of `out` when it closes.
  const tables: { rows: string[][]; start: number; cell: number }[] = [];
  const newline = (blank: boolean) => {
    out = out.replace(/[ \t]+$/, '');
    const want = blank ? '\n\n' : '\n';
    if (out === '' || out.endsWith(want)) return;
    out += out.endsWith('\n') ? '\n' : want;
  };
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (SKIPPED.has(name)) skipping++;
        if (name === 'pre') pre++;
        if (name === 'br') out += '\n';
        else if (name === 'table') {
          newline(true);
          tables.push({ rows: [], start: out.length, cell: -1 });
        } else if (name === 'tr') tables.at(-1)?.rows.push([]);
        else if (CELL.has(name) && tables.length) tables.at(-1)!.cell = out.length;
        else if (name === 'hr') {
          newline(false);
          out += '----------\n';
        } else if (name === 'li') {
          newline(false);
          out += '- ';
        } else if (BLOCK.has(name)) newline(SPACED.has(name));
        if (name === 'a') {
          links.push(attribs.href ?? null);
          linkStart = out.length;
        }
      },
      ontext(text) {
        if (skipping) return;
        const t = pre ? text : text.replace(/[ \t\r\n\f]+/g, ' ');
        out += out === '' || out.endsWith('\n') ? t.replace(/^ /, '') : t;
      },
      onclosetag(name) {
        if (SKIPPED.has(name)) skipping--;
        if (name === 'pre') pre--;
        const table = tables.at(-1);
        if (CELL.has(name) && table && table.cell >= 0) {
          const cell = out.slice(table.cell).replace(/\s+/g, ' ').trim();
          out = out.slice(0, table.cell);
          table.cell = -1;
          if (!table.rows.length) table.rows.push([]);
          table.rows.at(-1)!.push(cell);
        } else if (name === 'table' && table) {
          tables.pop();
          // A table inside a cell becomes that cell's text, on one line, when the outer cell closes.
          out = out.slice(0, table.start) + alignColumns(table.rows.filter((r) => r.length));
          newline(true);
        } else if (name === 'a') {
          const href = links.pop();
          const label = out.slice(linkStart).trim();
          const address = href?.replace(/^mailto:/i, '');
          if (href && address && label !== address && label !== href) out += ` <${address}>`;
        } else if (BLOCK.has(name) || name === 'li') newline(SPACED.has(name));
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return `${out.replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim()}\n`;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text as HTML shows it: the five characters HTML gives meaning escaped. */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
