import sanitizeHtml from 'sanitize-html';
import { DEVICE_STATUS_CODES } from '@pagewatch/contracts/device-events';
import { VARIABLE_PATTERN } from '@pagewatch/contracts/notifications';
import { translate, type Lang } from '../../i18n/messages.ts';

/** A calendar day among the facts (YYYY-MM-DD: a supply's run-out day). */
export type FactDay = { day: string };
/**
 * The values of a message's `{device.<name>}` variables (spec section 3). A moment is a Date and
 * a day a FactDay, so that each way out says it its way: a mail as its reader reads dates
 * (`factText`), a webhook in ISO 8601 (`factValue`, issue 54).
 */
export type Facts = Record<string, string | number | Date | FactDay | null | undefined>;

import { escapeHtml } from '../../lib/mail-text.ts';
export { escapeHtml };

/**
 * A body with its variables filled in; unknown ones empty. A value is what a printer says of
 * itself, so it is text wherever it lands: HTML-escaped, quotes included, so that in an
 * attribute it cannot leave its quotes and in text it is no markup. The result is cleaned
 * again with links kept only to the web and to a mailbox: `<a href="{device.hostname}">` of a
 * printer that calls itself `javascript:…` or `data:…` loses its href.
 */
export function fillHtml(template: string, facts: Facts): string {
  return sanitizeHtml(template.replace(VARIABLE_PATTERN, (_all, name: string) => escapeHtml(factText(facts[name]))), SENT_RULES);
}

/**
 * The facts as a reader of `lang` reads them: a status by the name the console gives it, never
 * its code ("Недоступно", not "NOT_AVAILABLE"). What a printer says of itself stays as it said it.
 */
export function inLanguage<F extends Facts>(facts: F, lang: Lang): F {
  // A status event's value may carry the printer's errors after the code: "ERROR (paperJam)".
  const m = typeof facts.status === 'string' ? /^([A-Z_]+)(.*)$/s.exec(facts.status) : null;
  if (!m || !(DEVICE_STATUS_CODES as readonly string[]).includes(m[1])) return facts;
  return { ...facts, status: `${translate(lang, `notification.status.${m[1]}`)}${m[2]}` };
}

/** A subject with its variables filled in: one line, no markup. */
export function fillLine(template: string, facts: Facts): string {
  return template.replace(VARIABLE_PATTERN, (_all, name: string) => factText(facts[name])).replace(/[\r\n\t]+/g, ' ').slice(0, 998);
}

const pad = (n: number) => String(n).padStart(2, '0');
/** dd.MM.yyyy HH:mm:ss UTC (spec section 9's date display; the recipient's zone is not known). */
export const formatTime = (d: Date) =>
  `${pad(d.getUTCDate())}.${pad(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} UTC`;

/** A calendar day (YYYY-MM-DD) as dd.MM.yyyy; '' for none. */
export const formatDay = (day: string | null) => (day ? `${day.slice(8, 10)}.${day.slice(5, 7)}.${day.slice(0, 4)}` : '');

/** A fact as a mail says it: a moment dd.MM.yyyy HH:mm:ss UTC, a day dd.MM.yyyy, nothing as ''. */
export function factText(v: Facts[string]): string {
  if (v instanceof Date) return formatTime(v);
  if (v !== null && typeof v === 'object') return formatDay(v.day);
  return String(v ?? '');
}

/** A fact as a webhook carries it: text, a moment in ISO 8601 with its offset (2026-12-01T21:27:20+00:00), a day YYYY-MM-DD. */
export function factValue(v: Facts[string]): string | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.toISOString().replace(/\.\d{3}Z$/, '+00:00');
  return typeof v === 'object' ? v.day : String(v);
}

/** The console's page of a device, from configuration (never from a request). */
export const deviceLink = (publicUrl: string | null, deviceId: number) => (publicUrl ? `${publicUrl.replace(/\/+$/, '')}/device/${deviceId}` : '');

/** A scheduled digest: the bodies of the events it gathered, one after the other. */
export const digestHtml = (parts: string[]) => parts.join('\n<hr>\n');

const COLOUR = [/^#[0-9a-f]{3,8}$/i, /^rgba?\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*(,\s*(0|1|0?\.\d+)\s*)?\)$/i];

/** What a body may hold: the editor's marks, alignment, colour and background, links, lists and headings. */
const BODY_RULES: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'strong', 'b', 'em', 'i', 's', 'u', 'span', 'mark', 'a', 'h1', 'h2', 'h3', 'h4', 'ul', 'ol', 'li', 'blockquote', 'code', 'pre', 'hr'],
  allowedAttributes: { a: ['href', 'target', 'rel'], '*': ['style'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedStyles: { '*': { color: COLOUR, 'background-color': COLOUR, 'text-align': [/^(left|right|center|justify)$/] } },
};

/** A link of a message as sent: to the web or a mailbox. */
const WEB_LINK = /^(https?|mailto):/i;

/**
 * A message as sent: the body's rules, and an href that is not a whole http(s) or mailto link is
 * dropped. A stored body may still hold one without a scheme (`{device.interfaceLink}`, filled
 * only now); once filled, a relative or protocol-relative link has no page to lead to.
 */
const SENT_RULES: sanitizeHtml.IOptions = {
  ...BODY_RULES,
  allowProtocolRelative: false,
  transformTags: {
    a: (tagName, attribs) => {
      const { href, ...rest } = attribs;
      return { tagName, attribs: href !== undefined && WEB_LINK.test(href) ? attribs : rest };
    },
  },
};

/**
 * A body as the editor may write it and no more (BODY_RULES). Scripts, event handlers, forms,
 * images and other styles are dropped before the body is stored.
 */
export function cleanBody(html: string): string {
  return sanitizeHtml(html, BODY_RULES);
}
