import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { DeviceFailureReason } from '@pagewatch/contracts/agent-api';
import { DEVICE_FAILURE_DEFS } from '@pagewatch/contracts/agents';

/** Why a device was not read (issue 44), label and colour from the one definition in the contracts: the agent's card and home show it. */
export function DeviceFailureBadge({ reason }: { reason: DeviceFailureReason }) {
  const { t } = useTranslation();
  const def = DEVICE_FAILURE_DEFS[reason];
  return (
    <Badge color={def.color} variant="light" size="sm" radius="sm" data-reason={reason}>
      {t(def.labelKey)}
    </Badge>
  );
}
