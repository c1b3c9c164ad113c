import { CHANNEL_KIND_FIELDS, channelInputSchema, type Channel, type ChannelChoice, type ChannelInput, type ChannelKind } from '@pagewatch/contracts/notification-channels';
import type { Db } from '../../db/client.ts';
import { translate, type Lang } from '../../i18n/messages.ts';
import { AppError, notFound, type FieldError } from '../../lib/app-error.ts';
import { assertDefaultAdmin, type Caller } from '../../lib/caller.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { OutboundRefused, resolveOutbound } from '../../lib/outbound.ts';
import { DomainService, type EventLog } from '../event-logs/index.ts';
import { ChannelDelivery, ChannelFailed } from './channel-delivery.ts';
import type { ChannelPayload } from './channel-formats.ts';
import * as repo from './channels.repository.ts';
import './channels.messages.ts';

const view = (r: repo.ChannelRow): Channel => ({
  id: r.id,
  kind: r.kind as ChannelKind,
  name: r.name,
  target: r.target,
  secretSet: !!r.secret,
  enabled: r.enabled,
  allowInternal: r.allowInternal,
});

/**
 * Notification channels (issue 42): the default administrator's, as the SMTP settings are
 * (security.md, invariant 2): where they point is where the server sends. Secrets are sealed and
 * write-only; every address is checked (SSRF) when saved and again at every send.
 */
export class ChannelsService extends DomainService {
  private readonly secrets: SecretBox;
  private readonly delivery: ChannelDelivery;

  constructor(db: Db, log: EventLog, opts: { secrets: SecretBox; delivery: ChannelDelivery }) {
    super(db, log);
    this.secrets = opts.secrets;
    this.delivery = opts.delivery;
  }

  async list(caller: Caller): Promise<Channel[]> {
    assertDefaultAdmin(caller);
    return (await repo.listChannels(this.db)).map(view);
  }

  /** What a notification form offers: the enabled channels, to the one who may choose them (others: none). */
  async choices(caller: Caller): Promise<ChannelChoice[]> {
    if (!caller.defaultAdmin) return [];
    return (await repo.listChannels(this.db)).filter((r) => r.enabled).map((r) => ({ id: r.id, kind: r.kind as ChannelKind, name: r.name }));
  }

  async get(caller: Caller, id: number): Promise<Channel> {
    assertDefaultAdmin(caller);
    const row = await repo.channelById(this.db, id);
    if (!row) throw notFound();
    return view(row);
  }

  /** The values to store: the secret sealed (none given keeps the stored one), each address checked. */
  private async checked(input: ChannelInput, existing: repo.ChannelRow | null): Promise<Omit<repo.ChannelValues, 'updatedAt'>> {
    const c = channelInputSchema.parse(input);
    if (existing && existing.kind !== c.kind) throw new AppError('VALIDATION', { fields: [{ field: 'kind', key: 'channel.kindLocked' }] });
    const f = CHANNEL_KIND_FIELDS[c.kind];
    const fields: FieldError[] = [];
    const secret = c.secret || (existing ? this.secrets.openOrNull(existing.secret) : null);
    if (f.secretRequired && !secret) fields.push({ field: 'secret', key: 'general.mandatory' });
    const target = f.target ? (c.target ?? null) : null;
    // A webhook's key signs what goes to its target: a new target gets a new key, never the old
    // one, so whoever answered the old address cannot forge messages at the new (issue 52).
    const moved = !!existing && f.target === 'url' && f.secret === 'key' && target !== existing.target;
    if (moved && (!c.secret || c.secret === this.secrets.openOrNull(existing.secret))) fields.push({ field: 'secret', key: 'channel.newTargetNewKey' });
    // Where the request goes: the target (a webhook), the secret (a Slack or Teams URL), Telegram's API.
    const url = f.target === 'url' ? target : f.secret === 'url' ? secret : f.secret === 'token' ? this.delivery.telegramUrl() : null;
    const field = f.target === 'url' ? 'target' : 'secret';
    if (url && !fields.length) {
      try {
        await resolveOutbound(url, c.allowInternal);
      } catch (err) {
        if (!(err instanceof OutboundRefused)) throw err;
        fields.push({ field: f.target === 'chat' ? 'allowInternal' : field, key: err.key, params: err.params });
      }
    }
    if (fields.length) throw new AppError('VALIDATION', { fields });
    return { kind: c.kind, name: c.name, target, secret: c.secret ? this.secrets.seal(c.secret) : (existing?.secret ?? null), enabled: c.enabled, allowInternal: c.allowInternal };
  }

  async create(caller: Caller, input: ChannelInput): Promise<Channel> {
    assertDefaultAdmin(caller);
    const values = await this.checked(input, null);
    const row = await this.db.transaction(async (tx) => {
      const r = await repo.insertChannel(tx, { ...values, updatedAt: new Date() });
      await this.log.write({ group: 'NOTIFICATIONS', level: 'I', messageCode: 'channel.created', params: { actor: caller.login, name: r.name }, userId: caller.userId }, tx);
      return r;
    });
    return view(row);
  }

  async update(caller: Caller, id: number, input: ChannelInput): Promise<Channel> {
    assertDefaultAdmin(caller);
    const existing = await repo.channelById(this.db, id);
    if (!existing) throw notFound();
    const values = await this.checked(input, existing);
    await this.db.transaction(async (tx) => {
      await repo.updateChannel(tx, id, { ...values, updatedAt: new Date() });
      await this.log.write({ group: 'NOTIFICATIONS', level: 'I', messageCode: 'channel.updated', params: { actor: caller.login, name: values.name }, userId: caller.userId }, tx);
    });
    return this.get(caller, id);
  }

  /** Deletes the channel, its links and its messages not yet delivered. */
  async remove(caller: Caller, id: number): Promise<void> {
    assertDefaultAdmin(caller);
    const existing = await repo.channelById(this.db, id);
    if (!existing) throw notFound();
    await this.db.transaction(async (tx) => {
      await repo.deleteChannel(tx, id);
      await this.log.write({ group: 'NOTIFICATIONS', level: 'I', messageCode: 'channel.deleted', params: { actor: caller.login, name: existing.name }, userId: caller.userId }, tx);
    });
  }

  /** The Test button: a message sent at once (not through the outbox), so its failure is the answer, in the caller's language. */
  async test(caller: Caller, id: number, lang: Lang): Promise<string> {
    assertDefaultAdmin(caller);
    const row = await repo.channelById(this.db, id);
    if (!row) throw notFound();
    const payload: ChannelPayload = {
      type: 'TEST',
      notification: null,
      subject: translate(lang, 'channel.testSubject'),
      text: translate(lang, 'channel.testText', { actor: caller.login, name: row.name }),
      facts: {},
      locationId: null,
      occurredAt: new Date().toISOString(),
    };
    try {
      await this.delivery.send(this.delivery.open(row), payload, `test-${crypto.randomUUID()}`);
    } catch (err) {
      if (!(err instanceof ChannelFailed)) throw err;
      await this.log.write({ group: 'NOTIFICATIONS', level: 'E', messageCode: 'channel.testFailed', params: { actor: caller.login, name: row.name, reason: err.message }, userId: caller.userId });
      if (err.refused) throw new AppError('UNPROCESSABLE', { key: err.refused.key, params: err.refused.params });
      throw new AppError('UNPROCESSABLE', { key: 'channel.testFailed', params: { reason: err.message } });
    }
    await this.log.write({ group: 'NOTIFICATIONS', level: 'I', messageCode: 'channel.testSent', params: { actor: caller.login, name: row.name }, userId: caller.userId });
    return translate(lang, 'channel.testSent', { name: row.name });
  }
}
