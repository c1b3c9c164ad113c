import { Button, Group } from '@mantine/core';
import { IconPlus, IconRefresh } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { agentsListSpec, type AgentListRow } from '@pagewatch/contracts/agents';
import { DataGrid } from '../../components/data-grid/data-grid.tsx';
import { AppPage } from '../../components/layout/app-page.tsx';
import { useAuth } from '../../lib/auth-context.tsx';
import { notifyMessage } from '../../lib/errors.ts';
import { notifyAllUpdate } from './api/agents-api.ts';
import { agentsColumns } from './agents-columns.tsx';

const rowId = (a: AgentListRow) => a.id;
const rowHref = (a: AgentListRow) => `/agent/${a.id}`;

/** `/agents` (spec section 2): the agents grid, Create, and "update all agents". */
export function AgentsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { hasGrant } = useAuth();
  const canEdit = hasGrant('MNU_AGENTS.EDIT');
  const notify = useMutation({
    mutationFn: notifyAllUpdate,
    onSuccess: (r) => notifyMessage(t('agents.updateRequested', { count: r.count })),
  });

  return (
    <AppPage title={t('nav.agents')}>
      <DataGrid<AgentListRow>
        gridKey="gridAgents"
        endpoint={agentsListSpec.endpoint}
        columns={agentsColumns}
        defaultSort={agentsListSpec.defaultSort}
        getRowId={rowId}
        rowHref={rowHref}
        toolbar={
          canEdit && (
            <Group gap="xs">
              <Button size="xs" leftSection={<IconPlus size={16} />} onClick={() => void navigate('/agent/-1')}>
                {t('agents.create')}
              </Button>
              <Button size="xs" variant="default" leftSection={<IconRefresh size={16} />} loading={notify.isPending} onClick={() => notify.mutate()}>
                {t('agents.notifyAll')}
              </Button>
            </Group>
          )
        }
      />
    </AppPage>
  );
}
