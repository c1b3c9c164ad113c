import { Parser } from 'htmlparser2';

/** Tags that end a line of their own (and, for paragraphs and headings, leave a blank one). */
const BLOCK = new Set(['p', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'ul', 'ol', 'table', 'tr']);
const SPACED = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'ul', 'ol', 'table']);
const SKIPPED = new Set(['script', 'style', 'head', 'title']);

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
        if (name === 'a') {
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
