import { sql } from 'drizzle-orm';
import { networkRangesList } from '@pagewatch/contracts/network-ranges';
import { listSql } from '../../lib/list-query.ts';

/** The network ranges grid: fields, filters and sorts from the shared spec, SQL here. */
export const networkRangesListSql = listSql(networkRangesList, {
  scope: sql`r.location_id`,
  from: sql`network_ranges r JOIN locations l ON l.id = r.location_id LEFT JOIN agents a ON a.id = r.agent_id`,
  tiebreaker: [sql`r.id`],
  sql: {
    id: sql`r.id`,
    name: sql`r.name`,
    type: sql`r.type`,
    address: sql`r.address`,
    mask: sql`r.mask`,
    from: sql`r.ip_from`,
    to: sql`r.ip_to`,
    port: sql`r.port`,
    snmpVersion: sql`r.snmp_version`,
    agentId: sql`r.agent_id`,
    agentName: sql`a.name`,
    locationId: sql`r.location_id`,
    locationName: sql`l.name`,
  },
});
