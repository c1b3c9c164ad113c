import { Badge, Button, Group, Table, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ALERT_KIND_DEFS, type Alert } from '@pagewatch/contracts/alerts';
import { DeviceLink } from '../../components/devices/device-link.tsx';
import { useHasGrant } from '../../lib/auth-context.tsx';
import { notifyError } from '../../lib/errors.ts';
import { formatNumber, formatDateTime } from '../../lib/format.ts';
import { queryClient } from '../../lib/query-client.ts';
import { acknowledgeAlert, fetchOpenAlerts, openAlertsKey } from './api/alerts-api.ts';
import { ago, RowsCard } from './home-lists.tsx';

/** Alerts change with device events and agents falling silent: home asks again this often. */
const REFRESH_MS = 30_000;

/** What an alert is about: a device (and its supply), or an agent. */
function Subject({ a }: { a: Alert }) {
  const { t } = useTranslation();
  if (a.agent) return <Text size="sm">{t('alerts.agent', { name: a.agent.name })}</Text>;
  if (!a.device) return null;
  return (
    <Group gap={6} wrap="nowrap">
      <DeviceLink d={{ ...a.device, locationName: a.locationName }} />
      {a.supply ? (
        <Text size="sm" c="dimmed">
          {a.supply.name ?? ''} {a.supply.level !== null ? `${formatNumber(a.supply.level)}%` : ''}
        </Text>
      ) : null}
    </Group>
  );
}

/**
 * Home's open alerts (issue 42): each condition since it started, the oldest first, who
 * acknowledged it, or a button to acknowledge it (for who may handle notifications).
 */
export function OpenAlerts() {
  const { t, i18n } = useTranslation();
  const canAcknowledge = useHasGrant('MNU_NOTIFICATIONS.EDIT');
  const alerts = useQuery({ queryKey: openAlertsKey, queryFn: fetchOpenAlerts, refetchInterval: REFRESH_MS });
  const acknowledge = useMutation({
    mutationFn: acknowledgeAlert,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: openAlertsKey }),
    onError: notifyError,
  });
  const rows = alerts.data ?? [];
  return (
    <RowsCard title={t('alerts.open')} count={rows.length} testId="home-alerts" empty={alerts.isLoading ? '' : t('alerts.none')} rows={rows} rowKey={(a) => a.id} rowTestId="home-alert">
      {(a) => (
        <>
          <Table.Td>
            <Badge variant="light" color={ALERT_KIND_DEFS[a.kind].color}>
              {t(ALERT_KIND_DEFS[a.kind].labelKey)}
            </Badge>
          </Table.Td>
          <Table.Td>
            <Subject a={a} />
          </Table.Td>
          <Table.Td c="dimmed">{a.locationName}</Table.Td>
          <Table.Td c="dimmed" title={formatDateTime(a.startedAt)}>
            {ago(a.startedAt, i18n.language)}
          </Table.Td>
          <Table.Td ta="right">
            {a.acknowledgedAt ? (
              <Text size="xs" c="dimmed" title={formatDateTime(a.acknowledgedAt)}>
                {t('alerts.acknowledgedBy', { login: a.acknowledgedBy ?? '—' })}
              </Text>
            ) : canAcknowledge ? (
              <Button size="compact-xs" variant="light" loading={acknowledge.isPending && acknowledge.variables === a.id} onClick={() => acknowledge.mutate(a.id)}>
                {t('alerts.acknowledge')}
              </Button>
            ) : null}
          </Table.Td>
        </>
      )}
    </RowsCard>
  );
}
