import { sql } from 'drizzle-orm';
import { networkRangesList } from '@pagewatch/contracts/network-ranges';
import { listSql, tableFields } from '../../lib/list-query.ts';
import { networkRanges } from '../../db/schema/network-ranges.ts';

/** The network ranges grid: fields, filters and sorts from the shared spec, SQL here. */
export const networkRangesListSql = listSql(networkRangesList, {
  scope: sql`r.location_id`,
  from: sql`network_ranges r JOIN locations l ON l.id = r.location_id LEFT JOIN agents a ON a.id = r.agent_id`,
  tiebreaker: [sql`r.id`],
  sql: {
    ...tableFields('r', networkRanges, ['id', 'name', 'type', 'address', 'mask', 'port', 'snmpVersion', 'agentId', 'locationId']),
    from: sql`r.ip_from`,
    to: sql`r.ip_to`,
    agentName: sql`a.name`,
    locationName: sql`l.name`,
  },
});
