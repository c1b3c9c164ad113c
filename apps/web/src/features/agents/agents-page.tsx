import { Button } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { agentsList } from '@pagewatch/contracts/agents';
import { ListScreen } from '../../components/data-grid/list-screen.tsx';
import { useAuth } from '../../lib/auth-context.tsx';
import { notifyMessage } from '../../lib/errors.ts';
import { notifyAllUpdate } from './api/agents-api.ts';
import { agentsColumns } from './agents-columns.tsx';

/** `/agents` (spec section 2): the agents grid, Create, and "update all agents". */
export function AgentsPage() {
  const { t } = useTranslation();
  const { hasGrant } = useAuth();
  const notify = useMutation({
    mutationFn: notifyAllUpdate,
    onSuccess: (r) => notifyMessage(t('agents.updateRequested', { count: r.count })),
  });
  return (
    <ListScreen
      section="agents"
      list={agentsList}
      columns={agentsColumns}
      create={{ label: 'agents.create', grant: 'MNU_AGENTS.EDIT' }}
      actions={
        hasGrant('MNU_AGENTS.EDIT') && (
          <Button size="xs" variant="default" leftSection={<IconRefresh size={16} />} loading={notify.isPending} onClick={() => notify.mutate()}>
            {t('agents.notifyAll')}
          </Button>
        )
      }
    />
  );
}
