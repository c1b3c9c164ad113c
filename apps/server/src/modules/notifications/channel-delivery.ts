import type { ChannelKind } from '@pagewatch/contracts/notification-channels';
import type { Db } from '../../db/client.ts';
import { translate } from '../../i18n/messages.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { OutboundRefused, postTo, resolveOutbound } from '../../lib/outbound.ts';
import { CHANNEL_FORMATS, type ChannelPayload, type OpenChannel } from './channel-formats.ts';
import { channelById, type ChannelRow } from './channels.repository.ts';
import './channels.messages.ts';

/** Telegram's Bot API; PAGEWATCH_TELEGRAM_API_URL replaces it for tests only (a local receiver stands in). */
export const TELEGRAM_API = 'https://api.telegram.org';

/** A send that did not go through, with why (in English: the server's log and the event log). */
export class ChannelFailed extends Error {
  /** The i18n key and parameters when the address itself was refused (SSRF): the test button shows them. */
  readonly refused: OutboundRefused | null;
  constructor(reason: string, refused: OutboundRefused | null = null) {
    super(reason.slice(0, 300));
    this.refused = refused;
  }
}

/** Why an answer is a failure: not 2xx, or (Telegram) `ok: false`; with the receiver's short description. */
function answerProblem(kind: ChannelKind, status: number, body: string): string | null {
  let json: { ok?: boolean; description?: string } | null;
  try {
    json = JSON.parse(body) as { ok?: boolean; description?: string } | null;
  } catch {
    json = null;
  }
  if (status >= 200 && status < 300 && !(kind === 'TELEGRAM' && json?.ok !== true)) return null;
  const said = (json?.description ?? body).replace(/\s+/g, ' ').trim().slice(0, 200);
  return `HTTP ${status}${said ? `: ${said}` : ''}`;
}

/**
 * Sends channel messages: each kind in its format (channel-formats.ts), to an address checked
 * anew at every send (a name that now resolves to loopback is refused: DNS rebinding).
 */
export class ChannelDelivery {
  private readonly db: Db;
  private readonly secrets: SecretBox;
  private readonly telegramApi: string;

  constructor(db: Db, secrets: SecretBox, opts: { telegramApi?: string } = {}) {
    this.db = db;
    this.secrets = secrets;
    this.telegramApi = opts.telegramApi || TELEGRAM_API;
  }

  /** Where Telegram's messages go (the host a save checks). */
  telegramUrl(): string {
    return this.telegramApi;
  }

  open(row: ChannelRow): OpenChannel {
    return { id: row.id, kind: row.kind as ChannelKind, name: row.name, target: row.target, secret: this.secrets.openOrNull(row.secret), allowInternal: row.allowInternal };
  }

  /** One send; throws ChannelFailed with the reason. `deliveryId` is the same at every retry (a receiver's idempotency key). */
  async send(c: OpenChannel, payload: ChannelPayload, deliveryId: string, now = new Date()): Promise<void> {
    const request = CHANNEL_FORMATS[c.kind](c, payload, { id: deliveryId, now, telegramApi: this.telegramApi });
    let answer;
    try {
      const target = await resolveOutbound(request.url, c.allowInternal);
      answer = await postTo(target, request.body, request.headers);
    } catch (err) {
      if (err instanceof OutboundRefused) throw new ChannelFailed(translate('en', err.key, err.params), err);
      // A network error names the address and port, never the URL's path (a Slack URL's secret).
      throw new ChannelFailed(err instanceof Error ? err.message : String(err));
    }
    const problem = answerProblem(c.kind, answer.status, answer.body);
    if (problem) throw new ChannelFailed(problem);
  }

  /** An outbox row's delivery: its channel as it is now (deleted: gone with it; disabled: a failure). */
  async deliver(m: { channelId: number | null; payload: Record<string, unknown> | null; messageId: string }): Promise<void> {
    const row = m.channelId === null ? null : await channelById(this.db, m.channelId);
    if (!row) throw new ChannelFailed('the channel no longer exists');
    if (!row.enabled) throw new ChannelFailed('the channel is disabled');
    await this.send(this.open(row), m.payload as ChannelPayload, m.messageId);
  }
}
