import { sql } from 'drizzle-orm';
import { locationsList } from '@pagewatch/contracts/dictionaries';
import { listSql, tableFields } from '../../lib/list-query.ts';
import { locations } from '../../db/schema/locations.ts';

/** The caller's locations as a list (pickers and the locations screen). */
export const userLocationsListSql = listSql(locationsList, {
  from: sql`locations l`,
  tiebreaker: [sql`l.id`],
  scope: sql`l.id`,
  sql: tableFields('l', locations, ['id', 'code', 'name']),
  extra: { parentId: { expr: sql`l.parent_id`, type: 'number', filter: true, sort: true } },
});
