import { sql } from 'drizzle-orm';
import type { ListDef } from '../../lib/list-query.ts';

/** The network ranges grid (`/api/network-ranges`, `/api/network-ranges-v`). */
export const networkRangesList: ListDef = {
  from: sql`network_ranges r JOIN locations l ON l.id = r.location_id LEFT JOIN agents a ON a.id = r.agent_id`,
  tiebreaker: sql`r.id`,
  defaultSort: [{ field: 'id', dir: 'ASC' }],
  columns: {
    id: { expr: sql`r.id`, type: 'number', filter: true, sort: true },
    name: { expr: sql`r.name`, type: 'string', filter: true, sort: true },
    type: { expr: sql`r.type`, type: 'string', filter: true, sort: true },
    address: { expr: sql`r.address`, type: 'string', filter: true, sort: true },
    mask: { expr: sql`r.mask`, type: 'string', filter: true, sort: true },
    from: { expr: sql`r.ip_from`, type: 'string', filter: true, sort: true },
    to: { expr: sql`r.ip_to`, type: 'string', filter: true, sort: true },
    port: { expr: sql`r.port`, type: 'number', filter: true, sort: true },
    snmpVersion: { expr: sql`r.snmp_version`, type: 'string', filter: true, sort: true },
    agentId: { expr: sql`r.agent_id`, type: 'number', filter: true, sort: true },
    agentName: { expr: sql`a.name`, type: 'string', filter: true, sort: true },
    locationId: { expr: sql`r.location_id`, type: 'number', filter: true, sort: true },
    locationName: { expr: sql`l.name`, type: 'string', filter: true, sort: true },
  },
};
