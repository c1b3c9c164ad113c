import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { Grant } from '@pagewatch/contracts/grants';
import type { Db } from '../../db/client.ts';
import { CONTROL_CHARS } from '@pagewatch/contracts/fields';
import { AppError, invalid } from '../../lib/app-error.ts';
import { sendMail } from '../../lib/mailer.ts';
import { translate, type Lang } from '../../i18n/messages.ts';
import { hashToken } from '../../plugins/access.ts';
import { rolesOfUsers } from '../roles/roles.repository.ts';
import { descendantIds, locationCount } from '../locations/locations.repository.ts';
import { meView } from '../users/users.repository.ts';
import type { EventLog } from '../event-logs/event-logs.service.ts';
import { demoRequests } from '../../db/schema.ts';
import type { DemoRequest } from '@pagewatch/contracts/auth';
import * as repo from './auth.repository.ts';
import type { Caller } from './caller.ts';

const HOUR = 3600_000;
export const SESSION_TTL = { normal: 12 * HOUR, remember: 30 * 24 * HOUR };
const THROTTLE = { windowMs: 15 * 60_000, perLogin: 5, perAddress: 30 };
const RESTORE_TTL = HOUR;

export const hashPassword = (password: string) => hash(password);
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
  constructor(db: Db, log: EventLog) {
    this.db = db;
    this.log = log;
  }

  private async throttle(keys: { login: string; address: string }) {
    const since = new Date(Date.now() - THROTTLE.windowMs);
    for (const [key, limit] of [
      [keys.login, THROTTLE.perLogin],
      [keys.address, THROTTLE.perAddress],
    ] as const) {
      const { n, oldest } = await repo.countFailures(this.db, key, since);
      if (n >= limit) {
        const seconds = Math.max(1, Math.ceil(((oldest?.getTime() ?? Date.now()) + THROTTLE.windowMs - Date.now()) / 1000));
        throw new AppError('TOO_MANY_ATTEMPTS', { params: { seconds }, headers: { 'retry-after': String(seconds) } });
      }
    }
  }

  async login(credentials: { login: string; password: string } | null, remember: boolean, address: string) {
    if (!credentials) throw new AppError('BAD_CREDENTIALS');
    const keys = { login: `login:${credentials.login.toLowerCase().slice(0, 200)}`, address: `ip:${address}` };
    await this.throttle(keys);
    const user = await repo.findUserByLogin(this.db, credentials.login);
    const ok = await verify(user?.passwordHash ?? (await dummyHash), credentials.password).catch(() => false);
    if (!user || !ok || !user.activeFlag) {
      await repo.addFailure(this.db, [keys.login, keys.address]);
      await this.log.write({ group: 'AUTH', level: 'W', messageCode: 'auth.failed', params: { login: credentials.login.slice(0, 128), address } });
      throw new AppError('BAD_CREDENTIALS');
    }
    await repo.clearFailures(this.db, keys.login);
    const token = newToken();
    const expiresAt = new Date(Date.now() + (remember ? SESSION_TTL.remember : SESSION_TTL.normal));
    await repo.createSession(this.db, user.id, hashToken(token), expiresAt);
    await this.log.write({ group: 'AUTH', level: 'I', messageCode: 'auth.signedIn', params: { login: user.login, address }, userId: user.id, objectClass: 'UserDao', objectId: user.id });
    return { token, expiresAt: expiresAt.toISOString(), user: await meView(this.db, user) };
  }

  async logout(caller: Caller) {
    await repo.revokeSession(this.db, caller.sessionId);
  }

  /** The caller behind a session token hash, or why there is none. */
  async resolveSession(tokenHash: string): Promise<Caller | null | 'expired'> {
    const row = await repo.sessionByHash(this.db, tokenHash);
    if (!row) return null;
    if (row.session.expiresAt.getTime() <= Date.now()) return 'expired';
    if (!row.user.activeFlag) return null;
    const [roles, locationIds, locationTotal] = await Promise.all([
      rolesOfUsers(this.db, [row.user.id]),
      repo.userLocationIds(this.db, row.user.id),
      locationCount(this.db),
    ]);
    const userRoles = roles.get(row.user.id) ?? [];
    const scope = await descendantIds(this.db, locationIds);
    return {
      userId: row.user.id,
      login: row.user.login,
      roleCodes: userRoles.map((r) => r.code),
      grants: new Set<Grant>(userRoles.flatMap((r) => r.grants)),
      locationIds,
      scope: new Set(scope),
      allLocations: scope.length >= locationTotal,
      sessionId: row.session.id,
    };
  }

  async me(caller: Caller) {
    const user = await repo.findUserByLogin(this.db, caller.login);
    if (!user) throw new AppError('UNAUTHENTICATED');
    return meView(this.db, user);
  }

  async forgotPassword(login: string, lang: Lang, consoleUrl: string) {
    const user = await repo.findUserByLoginOrEmail(this.db, login);
    if (user?.activeFlag) {
      const token = newToken();
      await repo.createRestoreToken(this.db, user.id, hashToken(token), new Date(Date.now() + RESTORE_TTL));
      const link = `${consoleUrl.replace(/\/$/, '')}/restore-password/${token}`;
      await sendMail(this.db, {
        to: user.email,
        subject: translate(lang, 'mail.restoreSubject'),
        text: translate(lang, 'mail.restoreBody', { login: user.login, link }),
      });
      await this.log.write({ group: 'AUTH', level: 'I', messageCode: 'auth.restoreSent', params: { login: user.login }, userId: user.id, objectClass: 'UserDao', objectId: user.id });
    } else {
      // Same answer for an unknown login, but only once mail could be sent, so a missing SMTP
      // configuration is reported either way.
      await sendMail(this.db, { to: [], subject: '' }).catch((e: AppError) => {
        if (e.code === 'SMTP_NOT_CONFIGURED') throw e;
      });
    }
    return { message: translate(lang, 'auth.restoreSent') };
  }

  async checkRestoreToken(token: string) {
    if (!(await repo.validRestoreToken(this.db, hashToken(token)))) throw new AppError('RESTORE_TOKEN_INVALID');
    return { valid: true };
  }

  async restorePassword(token: string, password: string, lang: Lang) {
    const t = await repo.validRestoreToken(this.db, hashToken(token));
    if (!t || !(await repo.useRestoreToken(this.db, t.tokenHash))) throw new AppError('RESTORE_TOKEN_INVALID');
    await repo.setPassword(this.db, t.userId, await hashPassword(password));
    await repo.revokeUserSessions(this.db, t.userId);
    await this.log.write({ group: 'AUTH', level: 'I', messageCode: 'auth.restored', params: {}, userId: t.userId, objectClass: 'UserDao', objectId: t.userId });
    return { message: translate(lang, 'auth.restoreDone') };
  }

  async demoRequest(req: DemoRequest, lang: Lang) {
    const [row] = await this.db.insert(demoRequests).values(req).returning();
    await this.log.write({
      group: 'AUTH',
      level: 'I',
      messageCode: 'auth.demoRequested',
      params: { name: req.fullName, email: req.email, company: req.company, phone: req.phone, comment: req.comment ? `: ${req.comment}` : '' },
      objectId: row.id,
    });
    return { message: translate(lang, 'auth.demoStored') };
  }
}
