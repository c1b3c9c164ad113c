import { sql } from 'drizzle-orm';
import { usersList } from '@pagewatch/contracts/users';
import { users } from '../../db/schema/users.ts';
import { listSql, tableFields } from '../../lib/list-query.ts';
import { locationIn, type Scoped } from '../../db/scope.ts';

/**
 * Users the caller may see: those with a location in the caller's scope (kept when the caller
 * sees every location: a user without locations stays hidden).
 */
const usersVisibleTo = (caller: Scoped) =>
  caller.scope.size ? sql`EXISTS (SELECT 1 FROM user_locations ul WHERE ul.user_id = u.id AND ${locationIn(caller.scope, sql`ul.location_id`)})` : sql`false`;

/** The users grid: fields, filters and sorts from the shared list, SQL here. */
export const usersListSql = listSql(usersList, {
  from: sql`users u`,
  tiebreaker: [sql`u.id`],
  sql: tableFields('u', users, ['id', 'login', 'email', 'lastName', 'firstName', 'middleName', 'activeFlag']),
  visibleTo: usersVisibleTo,
});
