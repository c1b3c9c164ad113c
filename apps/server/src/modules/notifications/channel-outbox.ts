import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { htmlToText } from '../../lib/mail-text.ts';
import type { ChannelPayload } from './channel-formats.ts';
import { channelById, type ChannelRef } from './channels.repository.ts';
import { insertMessages, type NewMessage } from './dispatch.repository.ts';
import { factValue, type Facts } from './render.ts';

const KIND_NAMES: Record<string, string> = { WEBHOOK: 'Webhook', SLACK: 'Slack', TEAMS: 'Teams', TELEGRAM: 'Telegram' };

/** A channel message as the event log names its destination: "Slack: ops". */
export const channelLabel = (c: ChannelRef) => `${KIND_NAMES[c.kind] ?? c.kind}: ${c.name}`.slice(0, 256);

/** The facts as the payload keeps them: text (dates in ISO 8601), none left undefined; the location is the payload's own `locationId`. */
const factsOf = (facts: Facts): Record<string, string | null> =>
  Object.fromEntries(Object.entries(facts).filter(([k, v]) => v !== undefined && k !== 'locationId').map(([k, v]) => [k, factValue(v)]));

/** What a notification's channel messages say: its subject and body filled, the body as text. */
export function notificationPayload(type: string, n: { id: number; name: string }, subject: string, html: string, facts: Facts, locationId: number | null): ChannelPayload {
  return { type, notification: { id: n.id, name: n.name }, subject, text: htmlToText(html).trim(), facts: factsOf(facts), locationId, occurredAt: new Date().toISOString() };
}

/** One outbox row for one channel: its own claim, retries and back-off, as an e-mail's. */
export function channelMessage(channel: ChannelRef, notificationId: number | null, payload: ChannelPayload): NewMessage {
  return {
    notificationId,
    // The delivery id a receiver sees (X-Pagewatch-Delivery): the same at every retry.
    messageId: `channel-${randomUUID()}`,
    toEmail: channelLabel(channel),
    subject: payload.subject.slice(0, 1000),
    html: '',
    attachments: [],
    locationId: payload.locationId,
    channelId: channel.id,
    payload,
  };
}

/**
 * Puts a message for one channel in the outbox, in the caller's transaction: it is sent once that
 * commits, with the same retries as a notification's (for other modules, e.g. supply orders).
 * False when the channel does not exist or is disabled.
 */
export async function enqueueChannelMessage(
  tx: Db,
  channelId: number,
  message: { type: string; subject: string; text: string; facts?: Record<string, string | null>; locationId?: number | null },
): Promise<boolean> {
  const channel = await channelById(tx, channelId);
  if (!channel?.enabled) return false;
  const payload: ChannelPayload = {
    type: message.type,
    notification: null,
    subject: message.subject,
    text: message.text,
    facts: message.facts ?? {},
    locationId: message.locationId ?? null,
    occurredAt: new Date().toISOString(),
  };
  await insertMessages(tx, [channelMessage(channel, null, payload)]);
  return true;
}
