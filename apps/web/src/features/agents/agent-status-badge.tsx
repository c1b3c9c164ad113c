import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AGENT_STATUS_DEFS } from '@pagewatch/contracts/agents';
import type { AgentStatus } from '@pagewatch/contracts/agent-api';

/** An agent's status with its colour and label, both from the one definition in the contracts. */
export function AgentStatusBadge({ status }: { status: AgentStatus }) {
  const { t } = useTranslation();
  const def = AGENT_STATUS_DEFS[status];
  if (!def) return <>{status}</>;
  return (
    <Badge color={def.color} variant="light" size="sm" radius="sm" data-status={status}>
      {t(def.labelKey)}
    </Badge>
  );
}
