import type { DeviceFailureReason } from '@pagewatch/contracts/agent-api';
import { DEVICE_FAILURE_DEFS } from '@pagewatch/contracts/agents';
import { CodeBadge } from './code-badge.tsx';

/** Why a device was not read (issue 44), label and colour from the one definition in the contracts: the agent's card and home show it. */
export function DeviceFailureBadge({ reason, whole }: { reason: DeviceFailureReason; whole?: boolean }) {
  return <CodeBadge defs={DEVICE_FAILURE_DEFS} code={reason} attr="reason" whole={whole} />;
}
