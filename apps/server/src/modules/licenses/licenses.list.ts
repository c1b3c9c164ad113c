import { sql } from 'drizzle-orm';
import { licensesList } from '@pagewatch/contracts/licenses';
import { listSql, tableFields } from '../../lib/list-query.ts';
import { locations } from '../../db/schema/locations.ts';

/**
 * The licenses tree grid: every location of the caller's scope with its license; DEFAULT shows
 * the instance license. Device counts are of the location's whole tree, as a license covers it.
 */
export const licensesListSql = listSql(licensesList, {
  from: sql`locations l
    LEFT JOIN licenses c ON c.location_id = l.id
    LEFT JOIN instance_license il ON l.code = 'DEFAULT'
    LEFT JOIN LATERAL (
      WITH RECURSIVE sub AS (SELECT l.id UNION ALL SELECT x.id FROM locations x JOIN sub ON x.parent_id = sub.id)
      SELECT count(*) FILTER (WHERE d.managed_flag)::int AS active, count(*)::int AS total
      FROM devices d WHERE d.location_id IN (SELECT id FROM sub)
    ) n ON true`,
  tiebreaker: [sql`l.id`],
  scope: sql`l.id`,
  sql: {
    ...tableFields('l', locations, ['id', 'parentId', 'code', 'name']),
    licenseId: sql`c.id`,
    dateFrom: sql`COALESCE(c.date_from, il.date_from)`,
    dateTo: sql`COALESCE(c.date_to, il.date_to)`,
    deviceCount: sql`COALESCE(c.device_count, il.device_count)`,
    activeDeviceCount: sql`n.active`,
    dbDeviceCount: sql`n.total`,
  },
});
