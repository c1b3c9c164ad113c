import type { Db } from '../../../db/client.ts';
import * as repo from '../dispatch.repository.ts';
import type { NotificationRow } from '../notifications.repository.ts';
import { digestHtml, fillLine } from '../render.ts';
import { messageId, type Context, type DeviceFacts, type DispatchKit, type Outgoing } from '../dispatch-kit.ts';

/** What a notification type does in the dispatcher: one of these per type (./type-handlers.ts maps them). */
export type TypeHandler = {
  /** A type told of device events (its contract's `events`): which events it hears of, and their facts. */
  events?: {
    hears: (n: NotificationRow, e: repo.EventFacts) => boolean;
    facts: (kit: DispatchKit, e: repo.EventFacts) => DeviceFacts;
  };
  /** Its schedule is due: what it sends then. */
  fire: (kit: DispatchKit, tx: Db, ctx: Context, n: NotificationRow, out: Outgoing, now: Date) => Promise<void>;
};

/** An event type's notification on a schedule: the digest it gathered, one message per address. */
export async function fireDigest(_kit: DispatchKit, tx: Db, _ctx: Context, n: NotificationRow, out: Outgoing) {
  const subject = fillLine(n.subject, {});
  const items = await repo.takeDigest(tx, n.id);
  const byEmail = new Map<string, string[]>();
  for (const i of items) byEmail.set(i.email, [...(byEmail.get(i.email) ?? []), i.html]);
  for (const [email, parts] of byEmail) {
    out.messages.push({ notificationId: n.id, messageId: messageId(), toEmail: email, subject, html: digestHtml(parts), attachments: [], locationId: null });
  }
}

/** A device type filter (dim01List): empty hears of every device. */
export const hearsDeviceType = (n: NotificationRow, e: repo.EventFacts) => n.dim01List.length === 0 || (e.deviceType !== null && n.dim01List.includes(e.deviceType));
