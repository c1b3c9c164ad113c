import { timingSafeEqual } from 'node:crypto';
import type { JWTPayload } from 'jose';
import type { LdapSettings, OidcSettings } from '@pagewatch/contracts/identity-providers';
import type { SsoError } from '@pagewatch/contracts/sso-errors';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { DomainEvents } from '../../lib/domain-events.ts';
import { sealedKeyId, type SecretBox } from '../../lib/secret-box.ts';
import type { Lang } from '../../i18n/messages.ts';
import { hashToken } from '../../plugins/access.ts';
import { newToken, type AuthService } from '../auth/index.ts';
import type { EventLog } from '../event-logs/index.ts';
import { descendantIds } from '../locations/index.ts';
import { revokeUserSessions, setUserLocations, setUserRoles } from '../users/index.ts';
import { DirectoryUnavailable, ldapAuthenticate, ldapLookup, type DirectoryUser, type LdapTarget } from './ldap-directory.ts';
import { authorizationUrl, discover, newAttempt, ProviderRefused, ProviderUnavailable, redeemCode, type OidcTarget } from './oidc-client.ts';
import { callbackPath } from './identity-providers.service.ts';
import * as repo from './identity-providers.repository.ts';

/** A sign-in refused for a reason the user is told (SSO_ERRORS). */
export class SsoRefused extends Error {
  readonly reason: SsoError;
  constructor(reason: SsoError, detail: string = reason) {
    super(detail);
    this.reason = reason;
  }
}

/** How a refusal answers a sign-in by password (a directory's). */
const REFUSAL: Record<SsoError, () => AppError> = {
  unavailable: () => new AppError('UNPROCESSABLE', { key: 'sso.unavailable' }),
  denied: () => new AppError('BAD_CREDENTIALS'),
  invalid: () => new AppError('UNPROCESSABLE', { key: 'sso.invalid' }),
  noAccess: () => new AppError('FORBIDDEN', { key: 'sso.noAccess' }),
  loginTaken: () => new AppError('CONFLICT', { key: 'sso.loginTaken' }),
  disabled: () => new AppError('BAD_CREDENTIALS'),
  expired: () => new AppError('UNPROCESSABLE', { key: 'sso.expired' }),
  noPublicUrl: () => new AppError('PUBLIC_URL_NOT_CONFIGURED'),
};

const ATTEMPT_TTL_MS = 10 * 60_000;
/**
 * An OpenID provider lists no users to look up again: whom it no longer lets in is disabled at
 * their next sign-in (their groups are read then), and one with no sign-in and no open session
 * for this many days is disabled by the periodic sync.
 */
export const OIDC_IDLE_DAYS = 90;
const TICKET_TTL_MS = 60_000;
/** The cookie that carries a sign-in's state, nonce and PKCE verifier to the callback, sealed. */
export const ATTEMPT_COOKIE = 'pagewatch_sso';

type Provider = NonNullable<Awaited<ReturnType<typeof repo.providerById>>>;
type Attempt = { p: number; state: string; nonce: string; verifier: string; remember: boolean; until: number };

const ldapTarget = (p: Provider): LdapTarget => ({ ...(p.settings as LdapSettings), allowInternal: p.allowInternal });
const oidcTarget = (p: Provider): OidcTarget => ({ ...(p.settings as OidcSettings), allowInternal: p.allowInternal });
const claim = (c: JWTPayload, name: string): string | null => (typeof c[name] === 'string' && c[name] ? (c[name] as string) : null);

/**
 * Signing in through identity providers (issue 55): a directory checks the password, an OpenID
 * provider the person; then the user is found by who they are at that provider (or made at
 * their first sign-in), and gets exactly the roles and locations their groups map to, within the
 * provider's location. No group that maps: no access, and a user made before is disabled.
 */
export class SsoService {
  private readonly db: Db;
  private readonly log: EventLog;
  private readonly auth: AuthService;
  private readonly secrets: SecretBox;
  private readonly events: DomainEvents;
  private readonly cloud: boolean;
  private readonly publicUrl: string | null;

  constructor(db: Db, log: EventLog, opts: { auth: AuthService; secrets: SecretBox; events: DomainEvents; cloud: boolean; publicUrl: string | null }) {
    this.db = db;
    this.log = log;
    this.auth = opts.auth;
    this.secrets = opts.secrets;
    this.events = opts.events;
    this.cloud = opts.cloud;
    this.publicUrl = opts.publicUrl?.replace(/\/+$/, '') ?? null;
  }

  private async provider(id: number, kind: 'LDAP' | 'OIDC'): Promise<Provider> {
    const p = await repo.providerById(this.db, id);
    if (!p || !p.enabled || p.kind !== kind || !p.secret) throw new SsoRefused('invalid', 'no such provider');
    return p;
  }

  /**
   * A provider for a sign-in from the login page: in cloud mode, only from its location's own
   * sign-in address (`at`), else as missing. Walking ids would otherwise tell, through where each
   * one redirects, whose provider it is.
   */
  private async providerAt(id: number, kind: 'LDAP' | 'OIDC', at: string | undefined): Promise<Provider> {
    const p = await this.provider(id, kind);
    if (this.cloud && (await repo.locationCodeOf(this.db, p.locationId))?.toLowerCase() !== at?.toLowerCase()) throw new SsoRefused('invalid', 'another location\'s provider');
    return p;
  }

  /** `POST /api/auth/providers/:id`: the login and password checked by the directory. */
  async ldapSignIn(id: number, at: string | undefined, credentials: { login: string; password: string } | null, remember: boolean, address: string, lang: Lang | null) {
    if (!credentials) throw new AppError('BAD_CREDENTIALS');
    const throttle = await this.auth.throttleSignIn(credentials.login, address);
    try {
      const p = await this.providerAt(id, 'LDAP', at).catch(() => {
        throw new AppError('NOT_FOUND');
      });
      let found: DirectoryUser | 'bad-credentials';
      try {
        found = await ldapAuthenticate(ldapTarget(p), this.secrets.open(p.secret!), credentials.login, credentials.password);
      } catch (err) {
        if (!(err instanceof DirectoryUnavailable)) throw err;
        await this.log.write({ group: 'AUTH', level: 'E', messageCode: 'sso.unavailable', params: { provider: p.name, reason: err.message.slice(0, 300) }, locationId: p.locationId });
        throw new SsoRefused('unavailable');
      }
      if (found === 'bad-credentials') throw new SsoRefused('denied');
      const user = await this.provision(p, found);
      await throttle.succeeded();
      return await this.auth.openSession(user, remember, address, lang, p.name);
    } catch (err) {
      if (!(err instanceof SsoRefused)) throw err;
      await this.auth.logFailure(credentials.login, address);
      throw REFUSAL[err.reason]();
    }
  }

  /** The roles and locations the groups give at this provider: mappings inside its location only. */
  private async rightsOf(p: Provider, groups: string[]) {
    const held = new Set(groups.map((g) => g.toLowerCase()));
    const below = new Set(await descendantIds(this.db, [p.locationId]));
    const hits = p.mappings.filter((m) => held.has(m.group.toLowerCase()) && below.has(m.locationId));
    return { roleIds: [...new Set(hits.map((m) => m.roleId))].sort(), locationIds: [...new Set(hits.map((m) => m.locationId))].sort() };
  }

  /** The provider's user for who the directory says they are, made or brought up to date; refused without access. */
  private async provision(p: Provider, who: DirectoryUser): Promise<repo.SsoUserRow> {
    const rights = await this.rightsOf(p, who.groups);
    const existing = await repo.userByExternal(this.db, p.id, who.externalId);
    if (!rights.roleIds.length) {
      if (existing?.activeFlag) await this.disable(existing, p, 'sso.noGroups');
      throw new SsoRefused('noAccess');
    }
    if (existing && !existing.activeFlag) throw new SsoRefused('disabled');
    // In cloud mode the login is the e-mail, as for every user there.
    const login = (this.cloud ? who.email?.toLowerCase() : who.login)?.slice(0, 128);
    if (!login) throw new SsoRefused('invalid', 'no login or e-mail');
    // Never another account's: a directory does not take over a local user (nor the default administrator).
    if (await repo.loginTaken(this.db, login, existing?.id ?? null)) throw new SsoRefused('loginTaken');
    const profile = { login, email: (who.email ?? '').slice(0, 256), lastName: (who.lastName ?? login).slice(0, 128), firstName: who.firstName?.slice(0, 128) ?? null };
    const user = await this.db.transaction(async (tx) => {
      const user = existing
        ? await repo.updateUser(tx, existing.id, profile)
        : await repo.insertUser(tx, { ...profile, passwordHash: '!sso', identityProviderId: p.id, externalId: who.externalId });
      await setUserRoles(tx, user.id, rights.roleIds);
      await setUserLocations(tx, user.id, rights.locationIds);
      if (!existing) await this.log.write({ group: 'USERS', level: 'I', messageCode: 'sso.userCreated', params: { login, provider: p.name }, userId: user.id, objectClass: 'UserDao', objectId: user.id, locationId: rights.locationIds[0] }, tx);
      return user;
    });
    if (existing) this.events.raise({ type: 'user.changed', userId: user.id, effect: 'rights' });
    return user;
  }

  private async disable(user: repo.SsoUserRow, p: Provider, messageCode: string, more: Record<string, unknown> = {}) {
    await this.db.transaction(async (tx) => {
      await repo.updateUser(tx, user.id, { activeFlag: false });
      await revokeUserSessions(tx, user.id);
      await this.log.write({ group: 'USERS', level: 'W', messageCode, params: { login: user.login, provider: p.name, ...more }, userId: user.id, objectClass: 'UserDao', objectId: user.id, locationId: p.locationId }, tx);
    });
    this.events.raise({ type: 'user.changed', userId: user.id, effect: 'ended' });
  }

  /**
   * The periodic sync of a directory: each of its active users looked up again; one it no longer
   * lists, or whose groups give nothing, is disabled; the rest get their groups' rights. A directory
   * that does not answer changes nobody.
   */
  async syncDirectory(id: number): Promise<{ checked: number; disabled: number }> {
    const p = await this.provider(id, 'LDAP');
    const s = ldapTarget(p);
    const password = this.secrets.open(p.secret!);
    let checked = 0;
    let disabled = 0;
    for (const user of await repo.usersOfProvider(this.db, p.id)) {
      if (!user.activeFlag || user.isSystem) continue;
      checked++;
      const found = await ldapLookup(s, password, user.externalId!);
      const rights = found ? await this.rightsOf(p, found.groups) : null;
      if (!found || !rights?.roleIds.length) {
        await this.disable(user, p, found ? 'sso.noGroups' : 'sso.notListed');
        disabled++;
        continue;
      }
      await this.db.transaction(async (tx) => {
        await setUserRoles(tx, user.id, rights.roleIds);
        await setUserLocations(tx, user.id, rights.locationIds);
      });
      this.events.raise({ type: 'user.changed', userId: user.id, effect: 'rights' });
    }
    return { checked, disabled };
  }

  /** An OpenID provider's users with no sign-in and no open session for OIDC_IDLE_DAYS, disabled. */
  async disableIdle(p: Provider, now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - OIDC_IDLE_DAYS * 86_400_000);
    const idle = await repo.idleUsersOfProvider(this.db, p.id, before, now);
    for (const user of idle) await this.disable(user, p, 'sso.idle', { days: OIDC_IDLE_DAYS });
    return idle.length;
  }

  /** Every enabled directory synced, every OpenID provider's idle users disabled; a directory that fails is logged and the others go on. */
  async syncAll(): Promise<{ providers: number; checked: number; disabled: number; failed: number }> {
    const out = { providers: 0, checked: 0, disabled: 0, failed: 0 };
    for (const p of await repo.listProviders(this.db, null)) {
      if (p.kind === 'OIDC' && p.enabled) out.disabled += await this.disableIdle(p);
      if (p.kind !== 'LDAP' || !p.enabled || !p.secret) continue;
      out.providers++;
      try {
        const r = await this.syncDirectory(p.id);
        out.checked += r.checked;
        out.disabled += r.disabled;
      } catch (err) {
        if (!(err instanceof DirectoryUnavailable)) throw err;
        out.failed++;
        await this.log.write({ group: 'AUTH', level: 'E', messageCode: 'sso.unavailable', params: { provider: p.name, reason: err.message.slice(0, 300) }, locationId: p.locationId });
      }
    }
    return out;
  }

  private redirectUri(id: number) {
    return `${this.publicUrl}${callbackPath(id)}`;
  }

  /** The console's login page, which says why (`?sso-error=`) or trades the ticket (`?sso-ticket=`). */
  loginUrl(query: Record<string, string>) {
    return `${this.publicUrl ?? ''}/login-form?${new URLSearchParams(query)}`;
  }

  /** `GET /api/auth/oidc/:id/start`: the provider's authorization address, and the sealed attempt for the cookie. */
  async oidcStart(id: number, at: string | undefined, remember: boolean): Promise<{ location: string; attempt: string }> {
    if (!this.publicUrl) throw new SsoRefused('noPublicUrl');
    const p = await this.providerAt(id, 'OIDC', at);
    const s = oidcTarget(p);
    const doc = await discover(s).catch((err) => this.unavailable(p, err));
    const a = newAttempt();
    const attempt: Attempt = { p: id, ...a, remember, until: Date.now() + ATTEMPT_TTL_MS };
    return { location: authorizationUrl(doc, s, this.redirectUri(id), a), attempt: this.secrets.seal(JSON.stringify(attempt)) };
  }

  private async unavailable(p: Provider, err: unknown): Promise<never> {
    if (!(err instanceof ProviderUnavailable)) throw err;
    await this.log.write({ group: 'AUTH', level: 'E', messageCode: 'sso.unavailable', params: { provider: p.name, reason: err.message.slice(0, 300) }, locationId: p.locationId });
    throw new SsoRefused('unavailable');
  }

  /**
   * `GET /api/auth/oidc/:id/callback`: the state checked against the cookie's, the code redeemed
   * and the id token checked, the user provisioned; the console gets a one-time ticket for the
   * session (the address it is in stays in the browser's history: a session token must not).
   */
  async oidcCallback(id: number, q: { code?: string; state?: string; error?: string }, sealed: string | undefined, address: string): Promise<string> {
    const a = this.openAttempt(sealed);
    if (!a || a.p !== id || a.until < Date.now()) throw new SsoRefused('expired');
    if (!q.state || !sameText(q.state, a.state)) throw new SsoRefused('expired', 'another state');
    if (q.error) throw new SsoRefused('denied', q.error);
    if (!q.code) throw new SsoRefused('invalid', 'no code');
    const p = await this.provider(id, 'OIDC');
    const s = oidcTarget(p);
    const doc = await discover(s).catch((err) => this.unavailable(p, err));
    let claims: JWTPayload;
    try {
      claims = await redeemCode(doc, s, this.secrets.open(p.secret!), this.redirectUri(id), q.code, a);
    } catch (err) {
      if (err instanceof ProviderRefused) {
        await this.log.write({ group: 'AUTH', level: 'W', messageCode: 'sso.refused', params: { provider: p.name, reason: err.message.slice(0, 300), address }, locationId: p.locationId });
        throw new SsoRefused('invalid');
      }
      return this.unavailable(p, err);
    }
    const groupsClaim = claims[s.groupsClaim];
    const who: DirectoryUser = {
      externalId: claims.sub!.slice(0, 512),
      login: claim(claims, s.loginClaim) ?? claim(claims, 'email') ?? claims.sub!,
      email: claim(claims, 'email'),
      lastName: claim(claims, 'family_name') ?? claim(claims, 'name'),
      firstName: claim(claims, 'given_name'),
      groups: Array.isArray(groupsClaim) ? groupsClaim.filter((g): g is string => typeof g === 'string') : typeof groupsClaim === 'string' ? [groupsClaim] : [],
    };
    const user = await this.provision(p, who);
    const ticket = newToken();
    await repo.insertTicket(this.db, hashToken(ticket), user.id, new Date(Date.now() + TICKET_TTL_MS));
    await this.log.write({ group: 'AUTH', level: 'I', messageCode: 'sso.verified', params: { login: user.login, provider: p.name, address }, userId: user.id, objectClass: 'UserDao', objectId: user.id });
    return this.loginUrl({ 'sso-ticket': ticket, ...(a.remember ? { remember: '1' } : {}) });
  }

  private openAttempt(sealed: string | undefined): Attempt | null {
    // A plain value would open as itself: only a sealed one is this server's.
    if (!sealed || sealedKeyId(sealed) === null) return null;
    try {
      return JSON.parse(this.secrets.open(sealed)) as Attempt;
    } catch {
      return null;
    }
  }

  /** `POST /api/auth/sso-ticket`: the session of a ticket, once, within a minute. */
  async redeemTicket(ticket: string, remember: boolean, address: string, lang: Lang | null) {
    const userId = await repo.takeTicket(this.db, hashToken(ticket), new Date());
    const user = userId === null ? null : await repo.userById(this.db, userId);
    if (!user?.activeFlag) throw new AppError('UNPROCESSABLE', { key: 'sso.expired' });
    const p = user.identityProviderId === null ? null : await repo.providerById(this.db, user.identityProviderId);
    return this.auth.openSession(user, remember, address, lang, p?.name ?? '?');
  }
}

const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
