import type { NotificationTypeCode } from '@pagewatch/contracts/notifications';
import type { TypeHandler } from './handler.ts';
import { agentSilent } from './agent-silent.ts';
import { counters } from './counters.ts';
import { ipChange } from './ip-change.ts';
import { minConsumableLevel } from './min-consumable-level.ts';
import { partReplacement } from './part-replacement.ts';
import { report } from './report.ts';
import { statusChange } from './status-change.ts';
import { suppliesToOrder } from './supplies-to-order.ts';

/** Each notification type's handler: a new type is a file here and its line below. */
export const TYPE_HANDLERS: Record<NotificationTypeCode, TypeHandler> = {
  STATUS_CHANGE: statusChange,
  IP_CHANGE: ipChange,
  MIN_CONSUMABLE_LEVEL: minConsumableLevel,
  PART_REPLACEMENT: partReplacement,
  REPORT: report,
  COUNTERS: counters,
  SUPPLIES_TO_ORDER: suppliesToOrder,
  AGENT_SILENT: agentSilent,
};

export type { TypeHandler } from './handler.ts';
export { dispatchLevels } from './min-consumable-level.ts';
export { watchesErrors, watchesOffline } from './status-change.ts';
