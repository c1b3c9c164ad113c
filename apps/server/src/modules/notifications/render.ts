import sanitizeHtml from 'sanitize-html';
import { VARIABLE_PATTERN } from '@pagewatch/contracts/notifications';

/** The values of a message's `{device.<name>}` variables (spec section 3), as text. */
export type Facts = Record<string, string | number | null | undefined>;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);

/** A body with its variables filled in, HTML-escaped (a printer's name is not markup); unknown ones empty. */
export function fillHtml(template: string, facts: Facts): string {
  return template.replace(VARIABLE_PATTERN, (_all, name: string) => escapeHtml(String(facts[name] ?? '')));
}

/** A subject with its variables filled in: one line, no markup. */
export function fillLine(template: string, facts: Facts): string {
  return template.replace(VARIABLE_PATTERN, (_all, name: string) => String(facts[name] ?? '')).replace(/[\r\n\t]+/g, ' ').slice(0, 998);
}

const pad = (n: number) => String(n).padStart(2, '0');
/** dd.MM.yyyy HH:mm:ss UTC (spec section 9's date display; the recipient's zone is not known). */
export const formatTime = (d: Date) =>
  `${pad(d.getUTCDate())}.${pad(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} UTC`;

/** A calendar day (YYYY-MM-DD) as dd.MM.yyyy; '' for none. */
export const formatDay = (day: string | null) => (day ? `${day.slice(8, 10)}.${day.slice(5, 7)}.${day.slice(0, 4)}` : '');

/** The console's page of a device, from configuration (never from a request). */
export const deviceLink = (publicUrl: string | null, deviceId: number) => (publicUrl ? `${publicUrl.replace(/\/+$/, '')}/device/${deviceId}` : '');

/** A scheduled digest: the bodies of the events it gathered, one after the other. */
export const digestHtml = (parts: string[]) => parts.join('\n<hr>\n');

const COLOUR = [/^#[0-9a-f]{3,8}$/i, /^rgba?\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*(,\s*(0|1|0?\.\d+)\s*)?\)$/i];

/**
 * A body as the editor may write it and no more: its marks (bold, italic, strike, underline),
 * alignment, colour and background, links (http, https, mailto), lists and headings. Scripts,
 * event handlers, forms, images and other styles are dropped before the body is stored.
 */
export function cleanBody(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: ['p', 'br', 'strong', 'b', 'em', 'i', 's', 'u', 'span', 'mark', 'a', 'h1', 'h2', 'h3', 'h4', 'ul', 'ol', 'li', 'blockquote', 'code', 'pre', 'hr'],
    allowedAttributes: { a: ['href', 'target', 'rel'], '*': ['style'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedStyles: { '*': { color: COLOUR, 'background-color': COLOUR, 'text-align': [/^(left|right|center|justify)$/] } },
  });
}
