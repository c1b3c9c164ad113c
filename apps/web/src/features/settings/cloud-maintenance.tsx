import { Button, Paper, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { notifyMessage } from '../../lib/errors.ts';
import { notifyAgentsUpdate } from './api/settings-api.ts';

/**
 * The cloud default admin's maintenance (spec sections 2 and 6): the agent task that has every
 * agent, of every customer, fetch its settings and the models pack again.
 */
export function CloudMaintenance() {
  const { t } = useTranslation();
  const [confirm, setConfirm] = useState(false);
  const notify = useMutation({
    mutationFn: notifyAgentsUpdate,
    onSuccess: (r) => notifyMessage(t('settings.updateRequested', { count: r.count })),
    onSettled: () => setConfirm(false),
  });
  return (
    <Paper withBorder p="md" data-testid="cloud-maintenance">
      <Title order={3} size="h5" mb="xs">{t('settings.maintenance')}</Title>
      <Text size="sm" c="dimmed" mb="sm">{t('settings.maintenanceHint')}</Text>
      <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={() => setConfirm(true)} data-testid="update-all-agents">
        {t('settings.updateAgents')}
      </Button>
      <ConfirmDialog
        opened={confirm}
        title={t('settings.maintenance')}
        message={t('settings.updateAgentsConfirm')}
        confirmLabel={t('settings.updateAgents')}
        busy={notify.isPending}
        onConfirm={() => notify.mutate()}
        onClose={() => setConfirm(false)}
      />
    </Paper>
  );
}
