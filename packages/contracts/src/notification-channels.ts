import { z } from 'zod';
import { text } from './fields.ts';

/**
 * Channels besides e-mail (issue 42): where a notification's messages go too. Each kind is an
 * entry here: what its `target` and its write-only `secret` are, which the form and the server
 * read alike.
 */
export const CHANNEL_KINDS = ['WEBHOOK', 'SLACK', 'TEAMS', 'TELEGRAM'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

/** Per kind: whether the target is a URL, a Telegram chat, or unused; whether the secret is a URL and must be set. */
export const CHANNEL_KIND_FIELDS: Record<ChannelKind, { target: 'url' | 'chat' | null; secret: 'key' | 'url' | 'token'; secretRequired: boolean }> = {
  WEBHOOK: { target: 'url', secret: 'key', secretRequired: true },
  SLACK: { target: null, secret: 'url', secretRequired: true },
  TEAMS: { target: null, secret: 'url', secretRequired: true },
  TELEGRAM: { target: 'chat', secret: 'token', secretRequired: true },
};

/** The generic webhook's schema name: its JSON is documented in apps/server/docs/webhook.md. */
export const WEBHOOK_SCHEMA = 'pagewatch.notification/v1';

const HTTP_URL = /^https?:\/\/[^\s/?#]+(?:[/?#]\S*)?$/i;
/** A Telegram chat: its numeric id (negative for groups) or a public channel's @name. */
const TELEGRAM_CHAT = /^(?:-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31})$/;
const TELEGRAM_TOKEN = /^\d{1,20}:[A-Za-z0-9_-]{20,100}$/;

/**
 * `POST`/`PUT /api/settings/notification-channels`. The secret is write-only: absent or null
 * keeps the stored one (a change of the target, where it goes, needs it again).
 */
export const channelInputSchema = z
  .object({
    kind: z.enum(CHANNEL_KINDS, 'general.badValue'),
    name: text(100, { line: true }).trim().min(1, 'general.mandatory'),
    target: text(1000, { line: true }).trim().nullish(),
    secret: text(1000, { line: true }).trim().nullish(),
    enabled: z.boolean().default(true),
    allowInternal: z.boolean().default(false),
  })
  .superRefine((c, ctx) => {
    const f = CHANNEL_KIND_FIELDS[c.kind];
    if (f.target === 'url' && !HTTP_URL.test(c.target ?? '')) ctx.addIssue({ code: 'custom', path: ['target'], message: c.target ? 'channel.badUrl' : 'general.mandatory' });
    if (f.target === 'chat' && !TELEGRAM_CHAT.test(c.target ?? '')) ctx.addIssue({ code: 'custom', path: ['target'], message: c.target ? 'channel.badChat' : 'general.mandatory' });
    if (!c.secret) return;
    if (f.secret === 'url' && !HTTP_URL.test(c.secret)) ctx.addIssue({ code: 'custom', path: ['secret'], message: 'channel.badUrl' });
    if (f.secret === 'token' && !TELEGRAM_TOKEN.test(c.secret)) ctx.addIssue({ code: 'custom', path: ['secret'], message: 'channel.badToken' });
    if (f.secret === 'key' && c.secret.length < 16) ctx.addIssue({ code: 'custom', path: ['secret'], message: 'channel.shortKey' });
  });
export type ChannelInput = z.input<typeof channelInputSchema>;
export type ParsedChannel = z.output<typeof channelInputSchema>;

/** A channel as the API shows it: the secret only says whether it is set. */
export const channelSchema = z.object({
  id: z.number().int(),
  kind: z.enum(CHANNEL_KINDS),
  name: z.string(),
  target: z.string().nullable(),
  secretSet: z.boolean(),
  enabled: z.boolean(),
  allowInternal: z.boolean(),
});
export type Channel = z.infer<typeof channelSchema>;

/** What a notification form offers: the enabled channels' names. */
export const channelChoiceSchema = z.object({ id: z.number().int(), kind: z.enum(CHANNEL_KINDS), name: z.string() });
export type ChannelChoice = z.infer<typeof channelChoiceSchema>;

/** `POST /api/settings/notification-channels/{id}/test`. */
export const channelTestResultSchema = z.object({ message: z.string() });
