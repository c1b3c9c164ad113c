import { sql } from 'drizzle-orm';
import { usersList } from '@pagewatch/contracts/users';
import { users } from '../../db/tables.ts';
import { listSql, tableFields } from '../../lib/list-query.ts';

/** The users grid: fields, filters and sorts from the shared list, SQL here. */
export const usersListSql = listSql(usersList, {
  from: sql`users u`,
  tiebreaker: [sql`u.id`],
  sql: tableFields('u', users, ['id', 'login', 'email', 'lastName', 'firstName', 'middleName', 'activeFlag']),
});
