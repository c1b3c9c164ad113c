import { Badge, Group, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AGENT_STATUS_DEFS } from '@pagewatch/contracts/agents';
import type { AgentStatus } from '@pagewatch/contracts/agent-api';
import { CodeBadge } from '../../components/code-badge.tsx';

/**
 * An agent's status with its colour and label, both from the one definition in the contracts;
 * beside it "update required" when the server no longer takes the agent's API version (issue 44).
 */
export function AgentStatusBadge({ status, updateRequired = false }: { status: AgentStatus; updateRequired?: boolean }) {
  const { t } = useTranslation();
  const badge = <CodeBadge defs={AGENT_STATUS_DEFS} code={status} attr="status" />;
  if (!updateRequired) return badge;
  return (
    <Group gap={4} wrap="nowrap">
      {badge}
      <Tooltip label={t('agents.updateRequiredHint')}>
        <Badge color="red" variant="filled" size="sm" radius="sm" data-testid="agent-update-required">
          {t('agents.updateRequired')}
        </Badge>
      </Tooltip>
    </Group>
  );
}
