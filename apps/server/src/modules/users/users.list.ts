import { sql } from 'drizzle-orm';
import { usersList } from '@pagewatch/contracts/users';
import { listSql } from '../../lib/list-query.ts';

/** The users grid: fields, filters and sorts from the shared spec, SQL here. */
export const usersListSql = listSql(usersList, {
  from: sql`users u`,
  tiebreaker: [sql`u.id`],
  sql: {
    id: sql`u.id`,
    login: sql`u.login`,
    email: sql`u.email`,
    lastName: sql`u.last_name`,
    firstName: sql`u.first_name`,
    middleName: sql`u.middle_name`,
    activeFlag: sql`u.active_flag`,
  },
});
