import { sql } from 'drizzle-orm';
import type { ListDef } from '../../lib/list-query.ts';

/** The dictionaries grid. */
export const dictionariesList: ListDef = {
  from: sql`dictionaries d`,
  tiebreaker: [sql`d.id`],
  defaultSort: [{ field: 'code', dir: 'ASC' }],
  columns: {
    id: { expr: sql`d.id`, type: 'number', filter: true, sort: true },
    code: { expr: sql`d.code`, type: 'string', filter: true, sort: true },
    name: { expr: sql`d.name`, type: 'string', filter: true, sort: true },
    nameRu: { expr: sql`d.name_ru`, type: 'string', filter: true, sort: true },
    hierarchical: { expr: sql`d.hierarchical`, type: 'boolean', filter: true, sort: true },
    isSystem: { expr: sql`d.is_system`, type: 'boolean', filter: true, sort: true },
    itemCount: {
      expr: sql`(CASE WHEN d.code = 'LOCATION' THEN (SELECT count(*) FROM locations) ELSE (SELECT count(*) FROM dictionary_items i WHERE i.dictionary_id = d.id) END)::int`,
      type: 'number',
      sort: true,
    },
  },
};
