import type { ListQuery } from '@pagewatch/contracts/list';
import type { UserInput, UserListRow } from '@pagewatch/contracts/users';
import type { Db } from '../../db/client.ts';
import { AppError, conflict, forbidden, invalid, notFound } from '../../lib/app-error.ts';
import { runList } from '../../lib/list-run.ts';
import type { Caller } from '../../lib/caller.ts';
import { hashPassword } from '../../lib/password.ts';
import type { DomainEvents } from '../../lib/domain-events.ts';
import { allRoles, existingRoleIds, roleIdsOf } from '../roles/index.ts';
import type { EventLog } from '../event-logs/index.ts';
import * as repo from './users.repository.ts';
import { keyLocations, locationIdsOf, revokeUserSessions, userById, userView } from './users.repository.ts';
import { usersListSql } from './users.list.ts';
import './users.messages.ts';

const loginConflict = (cloud: boolean) =>
  cloud
    ? new AppError('CONFLICT', { key: 'user.emailTaken', fields: [{ field: 'email', key: 'user.emailTaken' }] })
    : new AppError('CONFLICT', { key: 'user.loginTaken', fields: [{ field: 'login', key: 'user.loginTaken' }] });

/** Added and removed members between two id lists. */
function changes(before: number[], after: number[]) {
  const b = new Set(before);
  const a = new Set(after);
  return { added: [...a].filter((id) => !b.has(id)), removed: [...b].filter((id) => !a.has(id)) };
}

/**
 * Users and the rules of spec sections 5 and 6: a caller sees and manages the users of their
 * locations (and the locations below them), hands out only roles whose every grant they hold
 * and only locations in their scope, never changes their own roles or deletes themselves, and
 * the last active ADMIN stays.
 */
export class UsersService {
  private readonly db: Db;
  private readonly log: EventLog;
  /** A changed user is announced; auth ends or refreshes their sessions on every instance. */
  private readonly events: DomainEvents;
  /** Cloud mode: the login is the e-mail, whatever login was sent. */
  private readonly cloud: boolean;
  constructor(db: Db, log: EventLog, events: DomainEvents, opts: { cloud?: boolean } = {}) {
    this.db = db;
    this.log = log;
    this.events = events;
    this.cloud = opts.cloud ?? false;
  }

  /** The input with its login as stored: in cloud mode the e-mail (a customer signs in with it). */
  private withLogin(input: UserInput): UserInput {
    if (!this.cloud) return input;
    if (input.email.length > 128) throw invalid('email', 'user.emailTooLongForLogin');
    return { ...input, login: input.email };
  }

  list(caller: Caller, q: ListQuery) {
    return runList<UserListRow>(this.db, usersListSql, q, caller);
  }

  /** The user if the caller may see them: 404 when missing, 403 when outside the caller's locations. */
  private async visible(caller: Caller, id: number) {
    const user = await userById(this.db, id);
    if (!user) throw notFound();
    const locationIds = await locationIdsOf(this.db, id);
    if (!locationIds.some((l) => caller.scope.has(l))) throw new AppError('OUT_OF_SCOPE');
    return { user, locationIds };
  }

  /**
   * The user if the caller may change them: every location of the user must be in the caller's
   * scope. A user shared with a location the caller does not hold is read-only to them, or an
   * admin of one location could take over (password, role) an account of another.
   */
  private async manageable(caller: Caller, id: number) {
    const found = await this.visible(caller, id);
    if (!found.locationIds.every((l) => caller.scope.has(l))) throw new AppError('OUT_OF_SCOPE', { key: 'user.readOnly' });
    return found;
  }

  async get(caller: Caller, id: number) {
    const { user } = await this.visible(caller, id);
    return userView(this.db, user, caller.scope);
  }

  /** Roles the caller may hand out: those whose every grant the caller holds. */
  async managedRoles(caller: Caller) {
    const all = await allRoles(this.db);
    return all.filter((r) => r.grants.every((g) => caller.grants.has(g))).map(({ id, code, name }) => ({ id, code, name }));
  }

  /**
   * The role and location changes must be the caller's to make: every role added or taken
   * away is one they may hand out, every location added is in their scope. A user holding a
   * role beyond the caller's rights is not the caller's to change at all.
   */
  private async checkAssignable(caller: Caller, input: UserInput, current: { roleIds: number[]; locationIds: number[] }) {
    const wanted = [...new Set(input.grants.map((g) => g.id))];
    if ((await existingRoleIds(this.db, wanted)).length !== wanted.length) throw invalid('grants', 'general.badValue');
    const managed = new Set((await this.managedRoles(caller)).map((r) => r.id));
    if (current.roleIds.some((r) => !managed.has(r))) throw forbidden('user.superior');
    const roleChanges = changes(current.roleIds, wanted);
    if ([...roleChanges.added, ...roleChanges.removed].some((r) => !managed.has(r))) throw forbidden('user.roleNotHeld');
    const { added } = changes(current.locationIds, input.locations.map((l) => l.id));
    if (added.some((l) => !caller.scope.has(l))) throw forbidden('user.locationNotHeld');
    return { roleIds: wanted, rolesChanged: roleChanges.added.length + roleChanges.removed.length > 0 };
  }

  /** Refuses a change that would leave no active user holding the ADMIN role. */
  private async keepAnAdmin(tx: Db) {
    if ((await repo.activeAdminCount(tx)) < 1) throw conflict('user.lastAdmin');
  }

  /** The location an event about a user is filed under: one the caller sees, so their log shows it. */
  private logLocation(caller: Caller, locationIds: number[]) {
    return locationIds.find((l) => caller.scope.has(l)) ?? null;
  }

  async create(caller: Caller, given: UserInput) {
    const input = this.withLogin(given);
    if (!input.passwordHash) throw invalid('passwordHash', 'user.passwordRequired');
    const { roleIds } = await this.checkAssignable(caller, input, { roleIds: [], locationIds: [] });
    if (await repo.loginTaken(this.db, input.login, null)) throw loginConflict(this.cloud);
    const locationIds = await keyLocations(this.db, input.locations.map((l) => l.id));
    const passwordHash = await hashPassword(input.passwordHash);
    const id = await this.db.transaction(async (tx) => {
      const u = await repo.insertUser(tx, {
        login: input.login,
        email: input.email,
        passwordHash,
        activeFlag: input.activeFlag,
        systemNotificationRecipient: input.systemNotificationRecipient,
        lastName: input.lastName,
        firstName: input.firstName || null,
        middleName: input.middleName || null,
      });
      await repo.setRoles(tx, u.id, roleIds);
      await repo.setLocations(tx, u.id, locationIds);
      await this.log.byCaller(caller, { group: 'USERS', level: 'I', messageCode: 'user.created', params: { login: input.login }, objectClass: 'UserDao', objectId: u.id, locationId: this.logLocation(caller, locationIds) }, tx);
      return u.id;
    });
    return this.get(caller, id);
  }

  async update(caller: Caller, id: number, given: UserInput) {
    const input = this.withLogin(given);
    const { user, locationIds } = await this.manageable(caller, id);
    const currentRoles = await roleIdsOf(this.db, id);
    const wanted = new Set(input.grants.map((g) => g.id));
    if (id === caller.userId && (currentRoles.length !== wanted.size || currentRoles.some((r) => !wanted.has(r)))) {
      throw forbidden('user.ownRoles');
    }
    const { roleIds, rolesChanged } = await this.checkAssignable(caller, input, { roleIds: currentRoles, locationIds });
    if (await repo.loginTaken(this.db, input.login, id)) throw loginConflict(this.cloud);
    const passwordHash = input.passwordHash ? await hashPassword(input.passwordHash) : undefined;
    const newLocations = await keyLocations(this.db, input.locations.map((l) => l.id));
    // A new password or a deactivation ends the user's sessions (security.md invariant 5); the
    // caller changing their own password keeps the session they are using.
    const ended = Boolean(passwordHash) || (user.activeFlag && !input.activeFlag);
    const locationsChanged = changes(locationIds, newLocations);
    const rights = rolesChanged || locationsChanged.added.length + locationsChanged.removed.length > 0 || input.login !== user.login;
    await this.db.transaction(async (tx) => {
      if (ended) await revokeUserSessions(tx, id, id === caller.userId ? caller.sessionId : null);
      await repo.updateUser(tx, id, {
        login: input.login,
        email: input.email,
        ...(passwordHash ? { passwordHash } : {}),
        activeFlag: input.activeFlag,
        systemNotificationRecipient: input.systemNotificationRecipient,
        lastName: input.lastName,
        firstName: input.firstName || null,
        middleName: input.middleName || null,
        updatedAt: new Date(),
      });
      if (rolesChanged) await repo.setRoles(tx, id, roleIds);
      await repo.setLocations(tx, id, newLocations);
      await this.keepAnAdmin(tx);
      await this.log.byCaller(caller, { group: 'USERS', level: 'I', messageCode: 'user.updated', params: { login: user.login }, objectClass: 'UserDao', objectId: id, locationId: this.logLocation(caller, newLocations) }, tx);
    });
    this.events.raise({ type: 'user.changed', userId: id, effect: ended ? 'ended' : rights ? 'rights' : 'profile' });
    return this.get(caller, id);
  }

  async remove(caller: Caller, id: number) {
    const { user, locationIds } = await this.manageable(caller, id);
    if (id === caller.userId) throw forbidden('user.selfDelete');
    if (user.isSystem) throw conflict('user.systemUser');
    const managed = new Set((await this.managedRoles(caller)).map((r) => r.id));
    if ((await roleIdsOf(this.db, id)).some((r) => !managed.has(r))) throw forbidden('user.superior');
    await this.db.transaction(async (tx) => {
      await repo.deleteUser(tx, id);
      await this.keepAnAdmin(tx);
      await this.log.byCaller(caller, { group: 'USERS', level: 'I', messageCode: 'user.deleted', params: { login: user.login }, objectClass: 'UserDao', objectId: id, locationId: this.logLocation(caller, locationIds) }, tx);
    });
    this.events.raise({ type: 'user.changed', userId: id, effect: 'ended' });
  }
}
