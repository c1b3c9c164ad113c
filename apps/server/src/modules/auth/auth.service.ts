import { randomBytes } from 'node:crypto';
import { verify } from '@node-rs/argon2';
import { hashPassword } from '../../lib/password.ts';
import type { Db } from '../../db/client.ts';
import { CONTROL_CHARS } from '@pagewatch/contracts/fields';
import { AppError, invalid } from '../../lib/app-error.ts';
import { sendMail, type SmtpSettings } from '../../lib/mailer.ts';
import type { DomainEvents } from '../../lib/domain-events.ts';
import { translate, type Lang } from '../../i18n/messages.ts';
import { hashToken } from '../../plugins/access.ts';
import type { SessionNotice } from '../../plugins/realtime.ts';
import { meView, revokeUserSessions } from '../users/index.ts';
import type { EventLog } from '../event-logs/index.ts';
import type { DemoRequest } from '@pagewatch/contracts/auth';
import * as repo from './auth.repository.ts';
import { loadCaller } from './load-caller.ts';
import { countAttempt, THROTTLE, throttleKey } from './throttle.ts';
import { DEVICE_TTL_MS, DEVICES_PER_USER } from './device-cookie.ts';
import type { Caller } from '../../lib/caller.ts';

const HOUR = 3600_000;
export const SESSION_TTL = { normal: 12 * HOUR, remember: 30 * 24 * HOUR };
const RESTORE_TTL = HOUR;

export const newToken = () => randomBytes(32).toString('base64url');

// A hash to verify against when the login does not exist, so timing does not reveal it.
const dummyHash = hashPassword('not-a-real-password');

export function parseBasic(header: string | undefined): { login: string; password: string } | null {
  if (!header?.startsWith('Basic ')) return null;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i < 1) return null;
  // A NUL would reach the database (which refuses it) as a failed query; it is bad input.
  if (CONTROL_CHARS.test(decoded)) throw invalid('authorization', 'general.controlChars');
  return { login: decoded.slice(0, i), password: decoded.slice(i + 1) };
}

export class AuthService {
  private readonly db: Db;
  private readonly log: EventLog;
  /** The console's address for e-mailed links (PAGEWATCH_PUBLIC_URL); null: none are sent. */
  private readonly publicUrl: string | null;
  /** Ends or refreshes sessions on every instance (cache and WebSockets). */
  private readonly notify: (n: SessionNotice) => void;
  private readonly pending = new Set<Promise<unknown>>();
  /** Cloud mode: a user may sign in with their e-mail (their login, for users made in it). */
  private readonly cloud: boolean;
  /** The e-mail settings, given by the app (settings sits above auth: it uses auth's throttle). */
  private readonly smtp: () => Promise<SmtpSettings>;
  /** The time sign-in throttling reckons with; tests stop it, so that delays do not run out mid-test. */
  readonly clock = { now: () => Date.now() };
  constructor(
    db: Db,
    log: EventLog,
    opts: { publicUrl: string | null; notify: (n: SessionNotice) => void; smtp: () => Promise<SmtpSettings>; events: DomainEvents; cloud?: boolean },
  ) {
    this.db = db;
    this.log = log;
    this.publicUrl = opts.publicUrl;
    this.notify = opts.notify;
    this.smtp = opts.smtp;
    this.cloud = opts.cloud ?? false;
    // The services that change users and locations raise it; the cached callers they affect go.
    opts.events.on((e) => this.notify(e.type === 'user.changed' ? { kind: 'user', userId: e.userId, effect: e.effect } : { kind: 'scopes' }));
  }

  /**
   * Signs in with a login and password. `devices`: the device tokens the browser's cookie
   * carries; the answer says which the cookie should carry now (this user's first). `lang`: the
   * language the browser asks for, which becomes the language of the user's e-mails.
   */
  async login(credentials: { login: string; password: string } | null, remember: boolean, address: string, devices: string[] = [], lang: Lang | null = null) {
    if (!credentials) throw new AppError('BAD_CREDENTIALS');
    // Every attempt is counted before the password is checked (a success gives it back), so
    // concurrent attempts cannot all slip past the limit. An attempt the address limit refuses
    // stays counted for the pair: only an address already trying too much pays for it.
    const pairKey = throttleKey(THROTTLE.signIn, credentials.login, address);
    const addressKey = throttleKey(THROTTLE.signInAddress, address);
    await countAttempt(this.db, THROTTLE.signIn, pairKey, undefined, { clock: this.clock.now });
    await countAttempt(this.db, THROTTLE.signInAddress, addressKey, undefined, { clock: this.clock.now });
    const user = (await repo.findUserByLogin(this.db, credentials.login)) ?? (this.cloud ? await repo.findUserByUniqueEmail(this.db, credentials.login) : null);
    // Looked up for a login nobody has too (user 0 has no devices): its timing tells nothing either.
    const device = devices.length ? await repo.knownDevice(this.db, devices.map(hashToken), user?.id ?? 0, new Date(this.clock.now() - DEVICE_TTL_MS)) : null;
    const account = this.accountThrottle(credentials.login, user?.id ?? null, device);
    await countAttempt(this.db, account.policy, account.key, account.messageKey, { clock: this.clock.now });
    const ok = await verify(user?.passwordHash ?? (await dummyHash), credentials.password).catch(() => false);
    if (!user || !ok || !user.activeFlag) {
      await this.log.write({ group: 'AUTH', level: 'W', messageCode: 'auth.failed', params: { login: credentials.login.slice(0, 128), address } });
      throw new AppError('BAD_CREDENTIALS');
    }
    await repo.deleteCounter(this.db, pairKey);
    await repo.refundCounter(this.db, addressKey);
    await repo.refundCounter(this.db, account.key);
    const token = newToken();
    const expiresAt = new Date(Date.now() + (remember ? SESSION_TTL.remember : SESSION_TTL.normal));
    await repo.createSession(this.db, user.id, hashToken(token), expiresAt);
    if (lang && lang !== user.language) await repo.setLanguage(this.db, user.id, lang);
    await this.log.write({ group: 'AUTH', level: 'I', messageCode: 'auth.signedIn', params: { login: user.login, address }, userId: user.id, objectClass: 'UserDao', objectId: user.id });
    return { token, expiresAt: expiresAt.toISOString(), user: await meView(this.db, user), devices: await this.knowDevice(user.id, devices, device) };
  }

  /**
   * The counter an attempt on a login is also counted in: the browser's own when it signed in
   * as this user before, else the account's (by user id, so login and e-mail share it; by the
   * text typed when no user has it, so a made-up login is slowed exactly like a real one).
   */
  private accountThrottle(login: string, userId: number | null, device: string | null) {
    if (device) return { policy: THROTTLE.signInDevice, key: throttleKey(THROTTLE.signInDevice, device) };
    const key = userId === null ? throttleKey(THROTTLE.signInAccount, 'login', login) : throttleKey(THROTTLE.signInAccount, 'user', String(userId));
    return { policy: THROTTLE.signInAccount, key, messageKey: 'auth.accountBackoff' };
  }

  /** Remembers the browser as one of the user's devices; the tokens its cookie carries from now on. */
  private async knowDevice(userId: number, presented: string[], known: string | null): Promise<string[]> {
    if (known) {
      await repo.touchKnownDevice(this.db, known);
      const mine = presented.find((t) => hashToken(t) === known)!;
      return [mine, ...presented.filter((t) => t !== mine)];
    }
    const token = newToken();
    await repo.addKnownDevice(this.db, userId, hashToken(token), DEVICES_PER_USER);
    return [token, ...presented];
  }

  async logout(caller: Caller, tokenHash: string) {
    await repo.revokeSession(this.db, caller.sessionId);
    this.notify({ kind: 'token', tokenHash });
  }

  /** The caller behind a session token hash, or why there is none. */
  async resolveSession(tokenHash: string): Promise<Caller | null | 'expired'> {
    const row = await repo.sessionByHash(this.db, tokenHash);
    if (!row) return null;
    if (row.session.expiresAt.getTime() <= Date.now()) return 'expired';
    if (!row.user.activeFlag) return null;
    return loadCaller(this.db, row.user, row.session);
  }

  async me(caller: Caller) {
    const user = await repo.findUserByLogin(this.db, caller.login);
    if (!user) throw new AppError('UNAUTHENTICATED');
    return meView(this.db, user);
  }

  /**
   * Mails a restore link to an active user. The answer is the same whether the login exists or
   * not: the mail goes out after answering, and its failure is logged, not returned. The link
   * is built from the configured console address only (a Host header is the attacker's).
   */
  async forgotPassword(login: string, lang: Lang, address: string) {
    // Counted whether the login exists or not, so a refusal tells nothing either.
    await countAttempt(this.db, THROTTLE.forgotAddress, throttleKey(THROTTLE.forgotAddress, address), 'auth.tooManyRequests');
    await countAttempt(this.db, THROTTLE.forgotLogin, throttleKey(THROTTLE.forgotLogin, login), 'auth.tooManyRequests');
    if (!this.publicUrl) {
      await this.log.write({ group: 'AUTH', level: 'W', messageCode: 'auth.publicUrlMissing', params: {} });
      throw new AppError('PUBLIC_URL_NOT_CONFIGURED');
    }
    // Not configured is said at once; the message itself goes out after the answer.
    await this.smtp();
    const user = await repo.findUserByLoginOrEmail(this.db, login);
    if (user?.activeFlag) this.inBackground(this.mailRestoreLink(user, lang, this.publicUrl));
    return { message: translate(lang, 'auth.restoreSent') };
  }

  private async mailRestoreLink(user: { id: number; login: string; email: string }, lang: Lang, publicUrl: string) {
    const token = newToken();
    await repo.createRestoreToken(this.db, user.id, hashToken(token), new Date(Date.now() + RESTORE_TTL));
    const link = `${publicUrl.replace(/\/+$/, '')}/restore-password/${token}`;
    const about = { userId: user.id, objectClass: 'UserDao', objectId: user.id } as const;
    try {
      await sendMail(await this.smtp(), { to: user.email, subject: translate(lang, 'mail.restoreSubject'), text: translate(lang, 'mail.restoreBody', { login: user.login, link }) });
      await this.log.write({ group: 'AUTH', level: 'I', messageCode: 'auth.restoreSent', params: { login: user.login }, ...about });
    } catch (err) {
      const reason = err instanceof AppError ? String(err.params.reason ?? err.code) : (err as Error).message;
      await this.log.write({ group: 'AUTH', level: 'E', messageCode: 'auth.restoreMailFailed', params: { login: user.login, reason: reason.slice(0, 300) }, ...about });
    }
  }

  /** Work that runs after the answer; `drain` waits for it (server shutdown). */
  private inBackground(work: Promise<unknown>) {
    const p = work.catch(() => {}).finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  async drain() {
    await Promise.all([...this.pending]);
  }

  async checkRestoreToken(token: string) {
    if (!(await repo.validRestoreToken(this.db, hashToken(token)))) throw new AppError('RESTORE_TOKEN_INVALID');
    return { valid: true };
  }

  async restorePassword(token: string, password: string, lang: Lang) {
    const t = await repo.validRestoreToken(this.db, hashToken(token));
    if (!t || !(await repo.useRestoreToken(this.db, t.tokenHash))) throw new AppError('RESTORE_TOKEN_INVALID');
    await repo.setPassword(this.db, t.userId, await hashPassword(password));
    await revokeUserSessions(this.db, t.userId);
    this.notify({ kind: 'user', userId: t.userId, effect: 'ended' });
    await this.log.write({ group: 'AUTH', level: 'I', messageCode: 'auth.restored', params: {}, userId: t.userId, objectClass: 'UserDao', objectId: t.userId });
    return { message: translate(lang, 'auth.restoreDone') };
  }

  async demoRequest(req: DemoRequest, lang: Lang, address: string) {
    await countAttempt(this.db, THROTTLE.demoAddress, throttleKey(THROTTLE.demoAddress, address), 'auth.tooManyRequests');
    const row = await repo.insertDemoRequest(this.db, req);
    this.inBackground(this.mailDemoRequest(req, row.id, lang));
    await this.log.write({
      group: 'AUTH',
      level: 'I',
      messageCode: 'auth.demoRequested',
      params: { name: req.fullName, email: req.email, company: req.company, phone: req.phone, comment: req.comment ? `: ${req.comment}` : '' },
      objectId: row.id,
    });
    return { message: translate(lang, 'auth.demoStored') };
  }

  /**
   * The operators (active users of DEFAULT who receive system notifications) hear of a demo
   * request by e-mail, in the requester's language: the request is stored whether or not the
   * mail goes out.
   */
  private async mailDemoRequest(req: DemoRequest, id: number, lang: Lang) {
    const to = await repo.operatorEmails(this.db);
    if (!to.length) return;
    const params = { name: req.fullName, email: req.email, company: req.company, phone: req.phone, comment: req.comment ?? '' };
    try {
      await sendMail(await this.smtp(), { to, subject: translate(lang, 'mail.demoSubject', params), text: translate(lang, 'mail.demoBody', params) });
    } catch (err) {
      const reason = err instanceof AppError ? String(err.params.reason ?? err.code) : (err as Error).message;
      await this.log.write({ group: 'AUTH', level: 'E', messageCode: 'auth.demoMailFailed', params: { reason: reason.slice(0, 300) }, objectId: id });
    }
  }
}
