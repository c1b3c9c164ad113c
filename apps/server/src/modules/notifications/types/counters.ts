import * as repo from '../dispatch.repository.ts';
import { messageId } from '../dispatch-kit.ts';
import { countersFile } from '../notification-files.ts';
import { fillHtml, fillLine } from '../render.ts';
import type { TypeHandler } from './handler.ts';

/** The devices' counters as a file, each recipient's devices their own; the channels hear of it without the file. */
export const counters: TypeHandler = {
  fire: async (kit, tx, ctx, n, out, now) => {
    const subject = fillLine(n.subject, {});
    kit.toChannels(ctx, n, {}, null, out);
    const rows = await repo.counterRows(tx, ctx.areas.get(n.id) ?? null);
    for (const r of ctx.recipients.get(n.id) ?? []) {
      const file = countersFile(n, rows, ctx.scopes.get(r.userId) ?? new Set<number>(), r.language ?? kit.language, now);
      out.messages.push({ notificationId: n.id, messageId: messageId(), toEmail: r.email, subject, html: fillHtml(n.body, {}), locationId: null, attachments: [file] });
    }
  },
};
