import { sql } from 'drizzle-orm';
import type { ListDef } from '../../lib/list-query.ts';

/** The users grid: one declaration for the API's filters and sorts. */
export const usersList: ListDef = {
  from: sql`users u`,
  tiebreaker: sql`u.id`,
  defaultSort: [{ field: 'lastName', dir: 'ASC' }],
  columns: {
    id: { expr: sql`u.id`, type: 'number', filter: true, sort: true },
    login: { expr: sql`u.login`, type: 'string', filter: true, sort: true },
    email: { expr: sql`u.email`, type: 'string', filter: true, sort: true },
    lastName: { expr: sql`u.last_name`, type: 'string', filter: true, sort: true },
    firstName: { expr: sql`u.first_name`, type: 'string', filter: true, sort: true },
    middleName: { expr: sql`u.middle_name`, type: 'string', filter: true, sort: true },
    activeFlag: { expr: sql`u.active_flag`, type: 'boolean', filter: true, sort: true },
  },
};
