import { sql } from 'drizzle-orm';
import type { ListDef } from '../../lib/list-query.ts';

/** The agents grid (`/api/agents`, `/api/agents-v`). */
export const agentsList: ListDef = {
  from: sql`agents a JOIN locations l ON l.id = a.location_id`,
  tiebreaker: sql`a.id`,
  defaultSort: [{ field: 'name', dir: 'ASC' }],
  columns: {
    id: { expr: sql`a.id`, type: 'number', filter: true, sort: true },
    name: { expr: sql`a.name`, type: 'string', filter: true, sort: true },
    status: { expr: sql`a.status`, type: 'string', filter: true, sort: true },
    lastContactAt: { expr: sql`a.last_contact_at`, type: 'date', filter: true, sort: true },
    version: { expr: sql`a.version`, type: 'string', filter: true, sort: true },
    hostname: { expr: sql`a.hostname`, type: 'string', filter: true, sort: true },
    locationId: { expr: sql`a.location_id`, type: 'number', filter: true, sort: true },
    locationName: { expr: sql`l.name`, type: 'string', filter: true, sort: true },
    rangeCount: { expr: sql`(SELECT count(*)::int FROM network_ranges r WHERE r.agent_id = a.id)`, type: 'number', sort: true },
    deviceCount: { expr: sql`(SELECT count(*)::int FROM devices d WHERE d.agent_id = a.id)`, type: 'number', sort: true },
  },
};
