import { AGENT_STATUS_DEFS, agentsList } from '@pagewatch/contracts/agents';
import { AGENT_STATUSES } from '@pagewatch/contracts/agent-api';
import { columnsFromList } from '../../components/data-grid/grid-columns.ts';
import { AgentStatusBadge } from './agent-status-badge.tsx';
import { AgentVersionCell } from './agent-version-cell.tsx';

const STATUS_OPTIONS = AGENT_STATUSES.map((s) => ({ value: s, label: AGENT_STATUS_DEFS[s].labelKey }));

/** The agents grid's looks; fields, filters and sorts come from the shared list spec. */
export const agentsColumns = columnsFromList(agentsList, {
  name: { header: 'agents.name', width: 200 },
  status: { header: 'agents.statusLabel', width: 200, type: 'lookup', options: STATUS_OPTIONS, cell: (r) => <AgentStatusBadge status={r.status} updateRequired={r.updateRequired} /> },
  lastContactAt: { header: 'agents.lastContact', width: 170 },
  version: { header: 'agents.version', width: 190, cell: (r) => <AgentVersionCell row={r} /> },
  hostname: { header: 'agents.hostname', width: 160 },
  locationName: { header: 'agents.location', width: 160 },
  rangeCount: { header: 'agents.rangeCount', width: 100 },
  deviceCount: { header: 'agents.deviceCount', width: 100 },
  locationId: { header: 'agents.locationId', width: 90 },
  id: { header: 'agents.id', width: 80 },
  updateRequired: { header: 'agents.updateRequired', width: 150 },
  updatesPaused: { header: 'agents.updatesPaused', width: 110 },
  updateRefusedVersion: { header: 'agents.updateRefusedVersion', width: 130 },
});
