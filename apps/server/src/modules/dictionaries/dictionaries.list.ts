import { sql } from 'drizzle-orm';
import { dictionariesList } from '@pagewatch/contracts/dictionaries';
import { listSql } from '../../lib/list-query.ts';

/** The dictionaries grid: fields, filters and sorts from the shared list, SQL here. */
export const dictionariesListSql = listSql(dictionariesList, {
  from: sql`dictionaries d`,
  tiebreaker: [sql`d.id`],
  sql: {
    id: sql`d.id`,
    code: sql`d.code`,
    name: sql`d.name`,
    nameRu: sql`d.name_ru`,
    hierarchical: sql`d.hierarchical`,
    isSystem: sql`d.is_system`,
    itemCount: sql`(CASE WHEN d.code = 'LOCATION' THEN (SELECT count(*) FROM locations) ELSE (SELECT count(*) FROM dictionary_items i WHERE i.dictionary_id = d.id) END)::int`,
  },
});
