import { isBuilt, reportRows } from '../../reports/index.ts';
import { messageId } from '../dispatch-kit.ts';
import { reportFile, reportFilter } from '../notification-files.ts';
import { fillHtml, fillLine } from '../render.ts';
import type { TypeHandler } from './handler.ts';

/**
 * A report of the time since the last run (a day for the first), as CSV or XLSX, each
 * recipient's rows their own, written in the recipient's language (an XLSX's sheet is the
 * report's name in it). The channels hear of it without the file.
 */
export const report: TypeHandler = {
  fire: async (kit, tx, ctx, n, out, now) => {
    kit.toChannels(ctx, n, {}, null, out);
    const code = n.reportCode;
    if (!code || !isBuilt(code)) {
      await kit.log.write({ group: 'NOTIFICATIONS', level: 'W', messageCode: 'notification.reportUnavailable', params: { name: n.name } }, tx);
      return;
    }
    const rows = await reportRows(tx, code, reportFilter(n, ctx.areas.get(n.id) ?? null, now));
    for (const r of ctx.recipients.get(n.id) ?? []) {
      const file = await reportFile(n, code, rows, ctx.scopes.get(r.userId) ?? new Set<number>(), r.language ?? kit.language, now);
      out.messages.push({ notificationId: n.id, messageId: messageId(), toEmail: r.email, subject: fillLine(n.subject, {}), html: fillHtml(n.body, {}), locationId: null, attachments: [file] });
    }
  },
};
