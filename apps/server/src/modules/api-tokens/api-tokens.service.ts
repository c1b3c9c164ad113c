import { randomBytes } from 'node:crypto';
import { API_TOKEN_PREFIX, API_TOKENS_PER_USER, type ApiToken, type ApiTokenInput, apiTokenInputSchema } from '@pagewatch/contracts/api-tokens';
import type { Db } from '../../db/client.ts';
import { conflict, notFound } from '../../lib/app-error.ts';
import type { Caller } from '../../lib/caller.ts';
import { hashToken } from '../../plugins/access.ts';
import type { SessionNotice } from '../../plugins/realtime.ts';
import { loadCaller } from '../auth/index.ts';
import type { EventLog } from '../event-logs/index.ts';
import * as repo from './api-tokens.repository.ts';
import { TokenRate } from './token-rate.ts';
import './api-tokens.messages.ts';

const DAY = 24 * 3600_000;
/** How often a token's last use is written at most: a script calling every second costs one write a minute. */
const TOUCH_GAP_MS = 60_000;
/** Calls per token per minute (TokenRate). */
export const API_TOKEN_CALLS_PER_MINUTE = 120;
/** The characters of a token kept in clear for its owner to recognise it: the prefix and eight more. */
const SHOWN = API_TOKEN_PREFIX.length + 8;

type Row = Awaited<ReturnType<typeof repo.insertToken>>;

const view = (t: Row): ApiToken => ({
  id: t.id,
  name: t.name,
  prefix: t.prefix,
  readOnly: t.readOnly,
  expiresAt: t.expiresAt.toISOString(),
  createdAt: t.createdAt.toISOString(),
  lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
});

/**
 * Personal API tokens (issue 42): a user makes them for integrations, sees each once, lists and
 * revokes them. A token acts as its user (grants and locations read afresh, never more); which
 * routes it may call is the access plugin's business.
 */
export class ApiTokensService {
  private readonly db: Db;
  private readonly log: EventLog;
  private readonly notify: (n: SessionNotice) => void;
  /** The time tokens expire and are counted by; tests move it. */
  readonly clock = { now: () => Date.now() };
  readonly rate = new TokenRate(API_TOKEN_CALLS_PER_MINUTE, () => this.clock.now());

  constructor(db: Db, log: EventLog, notify: (n: SessionNotice) => void) {
    this.db = db;
    this.log = log;
    this.notify = notify;
  }

  async list(caller: Caller): Promise<ApiToken[]> {
    return (await repo.userTokens(this.db, caller.userId)).map(view);
  }

  async create(caller: Caller, input: ApiTokenInput) {
    const { name, expiresInDays, readOnly } = apiTokenInputSchema.parse(input);
    const now = this.clock.now();
    if ((await repo.liveTokenCount(this.db, caller.userId, new Date(now))) >= API_TOKENS_PER_USER) throw conflict('apiTokens.tooMany', { max: API_TOKENS_PER_USER });
    const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const row = await repo.insertToken(this.db, {
      userId: caller.userId,
      name,
      tokenHash: hashToken(token),
      prefix: token.slice(0, SHOWN),
      readOnly,
      expiresAt: new Date(now + expiresInDays * DAY),
    });
    await this.log.write({ group: 'AUTH', level: 'I', messageCode: 'apiToken.created', params: { actor: caller.login, name, prefix: row.prefix }, userId: caller.userId, objectClass: 'UserDao', objectId: caller.userId });
    return { ...view(row), token };
  }

  async revoke(caller: Caller, id: number) {
    const row = await repo.revokeToken(this.db, caller.userId, id);
    if (!row) throw notFound();
    // Cached callers of the token go at once, on every instance.
    this.notify({ kind: 'token', tokenHash: row.tokenHash });
    await this.log.write({ group: 'AUTH', level: 'I', messageCode: 'apiToken.revoked', params: { actor: caller.login, name: row.name, prefix: row.prefix }, userId: caller.userId, objectClass: 'UserDao', objectId: caller.userId });
  }

  /** The caller behind a token's hash (its user as they are now), or why there is none. */
  async resolve(tokenHash: string): Promise<Caller | null | 'expired'> {
    const row = await repo.tokenByHash(this.db, tokenHash);
    if (!row || !row.user.activeFlag) return null;
    if (row.token.expiresAt.getTime() <= this.clock.now()) return 'expired';
    const caller = await loadCaller(this.db, row.user, { id: 0, expiresAt: row.token.expiresAt });
    return { ...caller, apiToken: { id: row.token.id, readOnly: row.token.readOnly } };
  }

  /** Counts a call of the token (429 past the rate) and records its use, at most once a minute. */
  async used(tokenId: number) {
    this.rate.count(tokenId);
    await repo.touchToken(this.db, tokenId, new Date(this.clock.now()), TOUCH_GAP_MS);
  }
}
