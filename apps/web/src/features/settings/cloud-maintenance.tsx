import { Button } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { TitledCard } from '../../components/layout/titled-card.tsx';
import { useConfirmedMutation } from '../../components/use-confirmed-mutation.ts';
import { notifyMessage } from '../../lib/errors.ts';
import { notifyAgentsUpdate } from './api/settings-api.ts';

/**
 * The cloud default admin's maintenance (spec sections 2 and 6): the agent task that has every
 * agent, of every customer, fetch its settings and the models pack again.
 */
export function CloudMaintenance() {
  const { t } = useTranslation();
  const notify = useConfirmedMutation({
    mutationFn: notifyAgentsUpdate,
    onSuccess: (r) => notifyMessage(t('settings.updateRequested', { count: r.count })),
  });
  return (
    <TitledCard title={t('settings.maintenance')} hint={t('settings.maintenanceHint')} testId="cloud-maintenance">
      <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={() => notify.ask()} data-testid="update-all-agents">
        {t('settings.updateAgents')}
      </Button>
      <ConfirmDialog {...notify.dialog} title={t('settings.maintenance')} message={t('settings.updateAgentsConfirm')} confirmLabel={t('settings.updateAgents')} />
    </TitledCard>
  );
}
