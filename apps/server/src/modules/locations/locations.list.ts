import { sql } from 'drizzle-orm';
import type { ListDef } from '../../lib/list-query.ts';

/** The caller's locations as a list (pickers and the locations screen). */
export const userLocationsList: ListDef = {
  from: sql`locations l`,
  tiebreaker: [sql`l.id`],
  defaultSort: [{ field: 'name', dir: 'ASC' }],
  columns: {
    id: { expr: sql`l.id`, type: 'number', filter: true, sort: true },
    code: { expr: sql`l.code`, type: 'string', filter: true, sort: true },
    name: { expr: sql`l.name`, type: 'string', filter: true, sort: true },
    parentId: { expr: sql`l.parent_id`, type: 'number', filter: true, sort: true },
  },
};
