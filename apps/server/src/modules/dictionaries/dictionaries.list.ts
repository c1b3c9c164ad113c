import { sql } from 'drizzle-orm';
import { dictionariesList } from '@pagewatch/contracts/dictionaries';
import { listSql, tableFields } from '../../lib/list-query.ts';
import { dictionaries } from '../../db/schema/dictionaries.ts';
import { locationIn } from '../../db/scope.ts';

/**
 * The dictionaries grid: fields, filters and sorts from the shared list, SQL here. A caller sees
 * the system dictionaries and those owned by a location of its scope.
 */
export const dictionariesListSql = listSql(dictionariesList, {
  from: sql`dictionaries d`,
  visibleTo: (caller) => (caller.allLocations ? null : sql`(d.is_system OR ${locationIn(caller.scope, sql`d.location_id`)})`),
  tiebreaker: [sql`d.id`],
  sql: {
    ...tableFields('d', dictionaries, ['id', 'code', 'name', 'nameRu', 'hierarchical', 'isSystem']),
    itemCount: sql`(CASE WHEN d.code = 'LOCATION' THEN (SELECT count(*) FROM locations) ELSE (SELECT count(*) FROM dictionary_items i WHERE i.dictionary_id = d.id) END)::int`,
  },
});
