import type { AgentRange } from '@pagewatch/contracts/agent-api';
import type { networkRanges } from '../db/schema/network-ranges.ts';

/** What a stored network range row holds of the addresses it covers and the pace of its scan. */
type RangeColumns = Pick<typeof networkRanges.$inferSelect, 'id' | 'type' | 'address' | 'mask' | 'ipFrom' | 'ipTo' | 'port' | 'packetsPerSecond'>;

/**
 * A range's addresses and pace as the API names them: the same in the agent's config
 * (agents.repository.ts) and the console's view of the range (network-ranges.service.ts).
 */
export const rangeScope = (r: RangeColumns) => ({
  id: r.id,
  type: r.type as AgentRange['type'],
  address: r.address,
  mask: r.mask,
  from: r.ipFrom,
  to: r.ipTo,
  port: r.port,
  packetsPerSecond: r.packetsPerSecond,
});
