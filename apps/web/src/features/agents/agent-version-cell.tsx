import { Badge, Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AGENT_UPDATE_STATE_DEFS, agentUpdateState } from '@pagewatch/contracts/agents';
import type { AgentListRow } from '@pagewatch/contracts/agents';
import { agentKeys, fetchAgentRelease } from './api/agents-api.ts';

/** An agent's version and where it stands with the release the server offers (issue 44): up to date, update offered, paused or refused. */
export function AgentVersionCell({ row }: { row: AgentListRow }) {
  const { t } = useTranslation();
  const release = useQuery({ queryKey: agentKeys.release, queryFn: fetchAgentRelease, staleTime: 60_000 });
  const state = agentUpdateState(row, release.data);
  const def = state ? AGENT_UPDATE_STATE_DEFS[state] : null;
  return (
    <Group gap={6} wrap="nowrap">
      <Text size="sm">{row.version ?? ''}</Text>
      {def && (
        <Badge color={def.color} variant="light" size="xs" radius="sm" data-update-state={state} title={state === 'available' ? t('agents.update.to', { version: release.data?.version }) : undefined}>
          {t(def.labelKey)}
        </Badge>
      )}
    </Group>
  );
}
