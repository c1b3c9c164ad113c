import { createHmac } from 'node:crypto';
import { WEBHOOK_SCHEMA, type ChannelKind } from '@pagewatch/contracts/notification-channels';

/**
 * What a channel message says, as the outbox keeps it (`notification_messages.payload`): the
 * same for every kind; each kind's format below turns it into its own JSON at send time.
 */
export type ChannelPayload = {
  /** The notification type's code (STATUS_CHANGE, ...), or another source's (TEST, SUPPLIES_TO_ORDER). */
  type: string;
  notification: { id: number; name: string } | null;
  subject: string;
  /** The message as plain text. */
  text: string;
  /** The event's facts (the body's variables, filled), for machines. */
  facts: Record<string, string | null>;
  locationId: number | null;
  occurredAt: string;
};

/** A channel with its secret opened: what a send needs. */
export type OpenChannel = { id: number; kind: ChannelKind; name: string; target: string | null; secret: string | null; allowInternal: boolean };

/** One HTTP request: where to (a URL that may hold a secret: never logged) and what. */
export type ChannelRequest = { url: string; body: string; headers: Record<string, string> };

type Format = (c: OpenChannel, p: ChannelPayload, delivery: { id: string; now: Date; telegramApi: string }) => ChannelRequest;

const cut = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);

/** The signature a receiver recomputes: HMAC-SHA256 of `<timestamp>.<raw body>` under the channel's key (docs/webhook.md). */
export const webhookSignature = (key: string, timestamp: string, body: string) => `sha256=${createHmac('sha256', key).update(`${timestamp}.${body}`).digest('hex')}`;

/** The generic webhook: Pagewatch's own versioned JSON, signed (apps/server/docs/webhook.md). */
const webhook: Format = (c, p, d) => {
  const body = JSON.stringify({
    schema: WEBHOOK_SCHEMA,
    id: d.id,
    type: p.type,
    occurredAt: p.occurredAt,
    notification: p.notification,
    subject: p.subject,
    text: p.text,
    locationId: p.locationId,
    facts: p.facts,
  });
  const timestamp = String(Math.floor(d.now.getTime() / 1000));
  return {
    url: c.target ?? '',
    body,
    headers: {
      'x-pagewatch-schema': WEBHOOK_SCHEMA,
      'x-pagewatch-delivery': d.id,
      'x-pagewatch-timestamp': timestamp,
      'x-pagewatch-signature': webhookSignature(c.secret ?? '', timestamp, body),
    },
  };
};

/** Slack's incoming webhook: `text` (the notification's fallback) and Block Kit blocks; &, < and > escaped as Slack asks. */
const slackEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const slack: Format = (c, p) => ({
  url: c.secret ?? '',
  headers: {},
  body: JSON.stringify({
    text: cut(slackEscape(`${p.subject}\n${p.text}`), 3000),
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: cut(p.subject, 150), emoji: false } },
      { type: 'section', text: { type: 'mrkdwn', text: cut(slackEscape(p.text) || ' ', 3000) } },
    ],
  }),
});

/** Microsoft Teams' incoming webhook (Workflows): a message with one Adaptive Card. */
const teams: Format = (c, p) => ({
  url: c.secret ?? '',
  headers: {},
  body: JSON.stringify({
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            { type: 'TextBlock', text: cut(p.subject, 500), weight: 'Bolder', size: 'Medium', wrap: true },
            { type: 'TextBlock', text: cut(p.text, 20_000), wrap: true },
          ],
        },
      },
    ],
  }),
});

/** Telegram's Bot API sendMessage, with HTML parse mode (only &, < and > need escaping); 4096 characters at most. */
const htmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const telegram: Format = (c, p, d) => ({
  url: `${d.telegramApi.replace(/\/+$/, '')}/bot${c.secret ?? ''}/sendMessage`,
  headers: {},
  body: JSON.stringify({
    chat_id: c.target,
    text: cut(`<b>${htmlEscape(cut(p.subject, 500))}</b>\n\n${htmlEscape(cut(p.text, 3500))}`, 4096),
    parse_mode: 'HTML',
    disable_web_page_preview: true,
  }),
});

/** Each kind's format: a kind added is an entry here and in CHANNEL_KIND_FIELDS. */
export const CHANNEL_FORMATS: Record<ChannelKind, Format> = { WEBHOOK: webhook, SLACK: slack, TEAMS: teams, TELEGRAM: telegram };
