import { sql } from 'drizzle-orm';
import { agentsList } from '@pagewatch/contracts/agents';
import { OLDEST_AGENT_API_VERSION } from '@pagewatch/contracts/agent-api';
import { listSql, tableFields } from '../../lib/list-query.ts';
import { agents } from '../../db/schema/agents.ts';

/** The agents grid: fields, filters and sorts from the shared spec, SQL here. */
export const agentsListSql = listSql(agentsList, {
  scope: sql`a.location_id`,
  from: sql`agents a JOIN locations l ON l.id = a.location_id`,
  tiebreaker: [sql`a.id`],
  sql: {
    ...tableFields('a', agents, ['id', 'name', 'status', 'lastContactAt', 'version', 'hostname', 'locationId', 'updatesPaused', 'updateRefusedVersion']),
    locationName: sql`l.name`,
    rangeCount: sql`(SELECT count(*)::int FROM network_ranges r WHERE r.agent_id = a.id)`,
    deviceCount: sql`(SELECT count(*)::int FROM devices d WHERE d.agent_id = a.id)`,
    updateRequired: sql`coalesce(a.api_version < ${OLDEST_AGENT_API_VERSION}, false)`,
  },
});
