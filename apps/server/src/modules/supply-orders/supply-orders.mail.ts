import { randomUUID } from 'node:crypto';
import { ORDER_FILE_COLUMNS, SUGGESTION_FILE_COLUMNS, type SupplyOrder, type SupplySuggestion } from '@pagewatch/contracts/supply-orders';
import { csv } from '../../lib/csv.ts';
import { FILE_STYLES, fileColumns } from '../../lib/file-format.ts';
import { escapeHtml } from '../../lib/mail-text.ts';
import { translate, type Lang } from '../../i18n/messages.ts';
import type { OutboxAttachment } from '../../db/schema/notifications.ts';

/** An e-mail for the outbox (notification_messages), as this module writes it. */
export type OrderMail = { messageId: string; toEmail: string; subject: string; html: string; attachments: OutboxAttachment[]; locationId: number };
/** A supplier mail and when it may go (held back past the pace, PACE.supplierMail). */
export type PacedMail = OrderMail & { nextAttemptAt: Date };

const messageId = () => `<${randomUUID()}@pagewatch>`;
const th = (s: string) => `<th style="text-align:left">${escapeHtml(s)}</th>`;
const td = (s: string | number | null) => `<td>${escapeHtml(String(s ?? ''))}</td>`;

/** Quantities per part model and type, in the order they first appear. */
function tally(items: { partModelCode: string | null; partType: string; count: number }[], lang: Lang): string {
  const rows = items.map((i) => `<tr>${td(i.partModelCode ?? '—')}${td(i.partType)}${td(i.count)}</tr>`).join('');
  const head = `<tr>${th(translate(lang, 'devices.partModelCode'))}${th(translate(lang, 'devices.partCode'))}${th(translate(lang, 'supplyOrders.mail.count'))}</tr>`;
  return `<table border="1" cellpadding="4" cellspacing="0">${head}${rows}</table>`;
}

/**
 * The order of one location to its supplier, in `lang`: the quantities per part model in the
 * body, and a CSV of every supply ordered (device, part, reference) attached.
 */
export function supplierMail(to: string, locationId: number, orders: SupplyOrder[], reference: string | null, lang: Lang): OrderMail {
  const location = orders[0]!.locationName;
  const counts = new Map<string, { partModelCode: string | null; partType: string; count: number }>();
  for (const o of orders) {
    const key = `${o.partModelCode ?? ''}|${o.partName ?? ''}`;
    const c = counts.get(key) ?? { partModelCode: o.partModelCode, partType: o.partName ?? '', count: 0 };
    c.count++;
    counts.set(key, c);
  }
  const lines = orders.map((o) => ({ location, serialNumber: o.serialNumber, partModelCode: o.partModelCode, partType: o.partName, orderReference: reference }));
  const html = [
    `<p>${escapeHtml(translate(lang, 'supplyOrders.mail.intro', { location }))}</p>`,
    tally([...counts.values()], lang),
    reference ? `<p>${escapeHtml(translate(lang, 'supplyOrders.mail.reference', { reference }))}</p>` : '',
  ].join('\n');
  return {
    messageId: messageId(),
    toEmail: to,
    subject: translate(lang, 'supplyOrders.mail.subject', { id: orders[0]!.id }),
    html,
    attachments: [{ filename: `order-${new Date().toISOString().slice(0, 10)}.csv`, content: csv(fileColumns(ORDER_FILE_COLUMNS, lang), lines, FILE_STYLES[lang]), contentType: 'text/csv; charset=utf-8' }],
    locationId,
  };
}

/** The what-to-order list's lines as the file's rows (SUGGESTION_FILE_COLUMNS). */
export const suggestionRows = (lines: SupplySuggestion[]) =>
  lines.map((s) => ({ location: s.locationName, partModelCode: s.partModelCode, partType: s.partCode, orderCount: s.count, earliestRunOut: s.earliest }));

/**
 * One location's part of the daily "supplies to order" digest (SUPPLIES_TO_ORDER), in `lang`:
 * its lines of the what-to-order list in the body and as a CSV attached.
 */
export function digestPart(lines: SupplySuggestion[], horizonDays: number, lang: Lang): { html: string; attachment: OutboxAttachment } {
  const location = lines[0]!.locationName;
  const html = [
    `<p>${escapeHtml(translate(lang, 'supplyOrders.digest.intro', { location, days: horizonDays }))}</p>`,
    tally(lines.map((l) => ({ partModelCode: l.partModelCode, partType: l.partCode, count: l.count })), lang),
  ].join('\n');
  const content = csv(fileColumns(SUGGESTION_FILE_COLUMNS, lang), suggestionRows(lines), FILE_STYLES[lang]);
  return { html, attachment: { filename: `${translate(lang, 'supplyOrders.digest.file')}-${new Date().toISOString().slice(0, 10)}.csv`, content, contentType: 'text/csv; charset=utf-8' } };
}
