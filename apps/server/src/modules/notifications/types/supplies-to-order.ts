import { suppliesToOrderDigest } from '../../supply-orders/index.ts';
import { covers, messageId } from '../dispatch-kit.ts';
import { fillHtml, fillLine } from '../render.ts';
import type { TypeHandler } from './handler.ts';

/**
 * What to order (issue 45): per recipient, a message for each location of theirs (within the
 * notification's) that has something to order, in the recipient's language, its list attached.
 */
export const suppliesToOrder: TypeHandler = {
  fire: async (kit, tx, ctx, n, out) => {
    const area = ctx.areas.get(n.id);
    for (const r of ctx.recipients.get(n.id) ?? []) {
      const places = [...(ctx.scopes.get(r.userId) ?? [])].filter((l) => covers(area, l));
      for (const part of await suppliesToOrderDigest(tx, places, r.language ?? kit.language)) {
        out.messages.push({
          notificationId: n.id, messageId: messageId(), toEmail: r.email, subject: `${fillLine(n.subject, {})}: ${part.locationName}`,
          html: `${fillHtml(n.body, {})}\n${part.html}`, attachments: [part.attachment], locationId: part.locationId,
        });
      }
    }
  },
};
