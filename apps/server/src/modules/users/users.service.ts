import { and, eq, inArray, sql } from 'drizzle-orm';
import type { ListQuery } from '@pagewatch/contracts/list';
import type { UserInput, UserListRow } from '@pagewatch/contracts/users';
import type { Db } from '../../db/client.ts';
import { roles, userLocations, userRoles, users } from '../../db/schema.ts';
import { AppError, conflict, forbidden, invalid, notFound } from '../../lib/app-error.ts';
import { runList } from '../../lib/list-query.ts';
import type { Caller } from '../auth/caller.ts';
import { hashPassword } from '../auth/auth.service.ts';
import { allRoles } from '../roles/roles.repository.ts';
import type { EventLog } from '../event-logs/event-logs.service.ts';
import { userById, userView } from './users.repository.ts';
import { usersList } from './users.list.ts';
import './users.messages.ts';

const inList = (ids: Iterable<number>) => sql.join([...ids].map((id) => sql`${id}`), sql`, `);

/** Users the caller may see: those with a location in the caller's scope. */
const scopeOf = (caller: Caller) =>
  caller.scope.size
    ? sql`EXISTS (SELECT 1 FROM user_locations ul WHERE ul.user_id = u.id AND ul.location_id IN (${inList(caller.scope)}))`
    : sql`false`;

export class UsersService {
  private readonly db: Db;
  private readonly log: EventLog;
  constructor(db: Db, log: EventLog) {
    this.db = db;
    this.log = log;
  }

  list(caller: Caller, q: ListQuery) {
    return runList<UserListRow>(this.db, usersList, q, scopeOf(caller));
  }

  private async visible(caller: Caller, id: number) {
    const u = await userById(this.db, id);
    if (!u) throw notFound();
    const locs = await this.db.select().from(userLocations).where(eq(userLocations.userId, id));
    if (!locs.some((l) => caller.scope.has(l.locationId))) throw new AppError('OUT_OF_SCOPE');
    return { user: u, locationIds: locs.map((l) => l.locationId) };
  }

  async get(caller: Caller, id: number) {
    const { user } = await this.visible(caller, id);
    return userView(this.db, user);
  }

  /** Roles the caller may hand out: those whose every grant the caller holds. */
  async managedRoles(caller: Caller) {
    const all = await allRoles(this.db);
    return all.filter((r) => r.grants.every((g) => caller.grants.has(g))).map(({ id, code, name }) => ({ id, code, name }));
  }

  private async checkAssignable(caller: Caller, input: UserInput) {
    const managed = new Set((await this.managedRoles(caller)).map((r) => r.id));
    const existing = await this.db.select({ id: roles.id }).from(roles).where(inArray(roles.id, input.grants.map((g) => g.id)));
    if (existing.length !== new Set(input.grants.map((g) => g.id)).size) throw invalid('grants', 'general.badValue');
    if (input.grants.some((g) => !managed.has(g.id))) throw forbidden('user.roleNotHeld');
    if (input.locations.some((l) => !caller.scope.has(l.id))) throw forbidden('user.locationNotHeld');
  }

  private async loginTaken(login: string, exceptId: number | null) {
    const [row] = await this.db.select({ id: users.id }).from(users).where(sql`lower(${users.login}) = lower(${login})`);
    return row && row.id !== exceptId;
  }

  /** Refuses a change that would leave no active user holding the ADMIN role. */
  private async keepAnAdmin(tx: Db) {
    const res = await tx.execute(sql`
      SELECT count(*)::int AS n FROM users u JOIN user_roles ur ON ur.user_id = u.id JOIN roles r ON r.id = ur.role_id
      WHERE r.code = 'ADMIN' AND u.active_flag`);
    if (Number((res.rows[0] as { n: number }).n) < 1) throw conflict('user.lastAdmin');
  }

  async create(caller: Caller, input: UserInput) {
    if (!input.passwordHash) throw invalid('passwordHash', 'user.passwordRequired');
    await this.checkAssignable(caller, input);
    if (await this.loginTaken(input.login, null)) throw new AppError('CONFLICT', { fields: [{ field: 'login', key: 'user.loginTaken' }] });
    const passwordHash = await hashPassword(input.passwordHash);
    const id = await this.db.transaction(async (tx) => {
      const [u] = await tx
        .insert(users)
        .values({
          login: input.login,
          email: input.email,
          passwordHash,
          activeFlag: input.activeFlag,
          systemNotificationRecipient: input.systemNotificationRecipient,
          lastName: input.lastName,
          firstName: input.firstName || null,
          middleName: input.middleName || null,
        })
        .returning({ id: users.id });
      await tx.insert(userRoles).values(input.grants.map((g) => ({ userId: u.id, roleId: g.id })));
      await tx.insert(userLocations).values([...new Set(input.locations.map((l) => l.id))].map((locationId) => ({ userId: u.id, locationId })));
      await this.log.write({ group: 'USERS', level: 'I', message: `${caller.login} created user ${input.login}`, messageCode: 'user.created', userId: caller.userId, objectClass: 'UserDao', objectId: u.id }, tx as unknown as Db);
      return u.id;
    });
    return this.get(caller, id);
  }

  async update(caller: Caller, id: number, input: UserInput) {
    const { user, locationIds } = await this.visible(caller, id);
    await this.checkAssignable(caller, input);
    if (await this.loginTaken(input.login, id)) throw new AppError('CONFLICT', { fields: [{ field: 'login', key: 'user.loginTaken' }] });
    const currentRoles = (await this.db.select().from(userRoles).where(eq(userRoles.userId, id))).map((r) => r.roleId).sort();
    const newRoles = [...new Set(input.grants.map((g) => g.id))].sort();
    const rolesChanged = currentRoles.join() !== newRoles.join();
    if (rolesChanged && id === caller.userId) throw forbidden('user.ownRoles');
    const passwordHash = input.passwordHash ? await hashPassword(input.passwordHash) : undefined;
    // Locations outside the caller's scope stay: the caller cannot see them, the user keeps them.
    const hidden = locationIds.filter((l) => !caller.scope.has(l));
    const newLocations = [...new Set([...hidden, ...input.locations.map((l) => l.id)])];
    await this.db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({
          login: input.login,
          email: input.email,
          ...(passwordHash ? { passwordHash } : {}),
          activeFlag: input.activeFlag,
          systemNotificationRecipient: input.systemNotificationRecipient,
          lastName: input.lastName,
          firstName: input.firstName || null,
          middleName: input.middleName || null,
          updatedAt: new Date(),
        })
        .where(eq(users.id, id));
      if (rolesChanged) {
        await tx.delete(userRoles).where(eq(userRoles.userId, id));
        await tx.insert(userRoles).values(newRoles.map((roleId) => ({ userId: id, roleId })));
      }
      await tx.delete(userLocations).where(eq(userLocations.userId, id));
      await tx.insert(userLocations).values(newLocations.map((locationId) => ({ userId: id, locationId })));
      await this.keepAnAdmin(tx as unknown as Db);
      await this.log.write({ group: 'USERS', level: 'I', message: `${caller.login} changed user ${user.login}`, messageCode: 'user.updated', userId: caller.userId, objectClass: 'UserDao', objectId: id }, tx as unknown as Db);
    });
    return this.get(caller, id);
  }

  async remove(caller: Caller, id: number) {
    const { user } = await this.visible(caller, id);
    if (id === caller.userId) throw forbidden('user.selfDelete');
    await this.db.transaction(async (tx) => {
      await tx.delete(users).where(and(eq(users.id, id)));
      await this.keepAnAdmin(tx as unknown as Db);
      await this.log.write({ group: 'USERS', level: 'I', message: `${caller.login} deleted user ${user.login}`, messageCode: 'user.deleted', userId: caller.userId, objectClass: 'UserDao', objectId: id }, tx as unknown as Db);
    });
  }
}
