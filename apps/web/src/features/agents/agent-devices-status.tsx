import { Anchor, Badge, Group, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DEVICE_FAILURE_REASONS, type DeviceFailureReason } from '@pagewatch/contracts/agent-api';
import { DEVICE_FAILURE_DEFS, DEVICE_OUTCOMES, type AgentDevicesStatusQuery } from '@pagewatch/contracts/agents';
import { SmallTable } from '../../components/small-table.tsx';
import { DeviceFailureBadge } from '../../components/device-failure-badge.tsx';
import { WHOLE } from '../../components/code-badge.tsx';
import { agentKeys, fetchAgentDevicesStatus } from './api/agents-api.ts';
import { formatDateTime } from '../../lib/format.ts';

const when = (iso: string | null) => (iso ? formatDateTime(iso) : '—');

/** Why a device is not collected (issue 44): each device of the agent's ranges, its last read and last failure, filterable. */
export function AgentDevicesStatus({ agentId }: { agentId: number }) {
  const { t } = useTranslation();
  const [outcome, setOutcome] = useState<string | null>(null);
  const [reason, setReason] = useState<string | null>(null);
  const [address, setAddress] = useState('');
  const [typed] = useDebouncedValue(address.replace(/[^0-9.]/g, '').slice(0, 15), 300);
  const q: AgentDevicesStatusQuery = {
    ...(outcome ? { outcome: outcome as AgentDevicesStatusQuery['outcome'] } : {}),
    ...(reason ? { reason: reason as DeviceFailureReason } : {}),
    ...(typed ? { address: typed } : {}),
  };
  const status = useQuery({ queryKey: agentKeys.devicesStatus(agentId, q), queryFn: () => fetchAgentDevicesStatus(agentId, q), placeholderData: keepPreviousData, refetchInterval: 30_000 });
  const rows = status.data?.rows ?? [];
  const ms = (v: number | null) => (v === null ? '' : t('agents.millis', { value: v }));
  return (
    <Paper withBorder p="md">
      <Title order={5}>{t('agents.devicesStatus')}</Title>
      <Text size="xs" c="dimmed" mb="xs">
        {t('agents.devicesStatusHint')}
      </Text>
      <Group gap="sm" mb="xs" align="flex-end">
        <Select label={t('agents.filterOutcome')} data={DEVICE_OUTCOMES.map((o) => ({ value: o, label: t(`agents.outcome.${o}`) }))} value={outcome} onChange={setOutcome} clearable w={160} size="xs" />
        <Select label={t('agents.filterReason')} data={DEVICE_FAILURE_REASONS.map((r) => ({ value: r, label: t(DEVICE_FAILURE_DEFS[r].labelKey) }))} value={reason} onChange={setReason} clearable w={180} size="xs" />
        <TextInput label={t('agents.filterAddress')} value={address} onChange={(e) => setAddress(e.currentTarget.value)} maxLength={15} w={160} size="xs" />
      </Group>
      <SmallTable
        testId="agent-devices-status"
        rows={rows}
        loading={status.isLoading}
        rowKey={(r) => r.ip}
        empty={t('agents.noDevicesStatus')}
        columns={[
          { header: t('agents.deviceAddress'), cell: (r) => r.ip },
          { header: t('devices.modelCode'), cell: (r) => r.modelCode ?? '—' },
          {
            header: t('devices.serialNumber'),
            cell: (r) =>
              r.deviceId !== null ? (
                <Anchor component={Link} to={`/device/${r.deviceId}`} size="sm">
                  {r.serialNumber ?? r.ip}
                </Anchor>
              ) : '—',
          },
          {
            header: t('agents.filterOutcome'),
            cell: (r) => (
              <Badge color={r.outcome === 'OK' ? 'teal' : 'red'} variant="light" size="sm" radius="sm" {...WHOLE} data-outcome={r.outcome}>
                {t(`agents.outcome.${r.outcome}`)}
              </Badge>
            ),
          },
          { header: t('agents.lastRead'), cell: (r) => (r.lastOkAt ? `${when(r.lastOkAt)} · ${ms(r.lastOkMs)}` : '—') },
          {
            header: t('agents.lastFailure'),
            cell: (r) =>
              r.lastFailureReason ? (
                <Stack gap={0}>
                  <DeviceFailureBadge reason={r.lastFailureReason} whole />
                  <Text size="xs" c="dimmed">
                    {when(r.lastFailureAt)} · {ms(r.lastFailureMs)}
                  </Text>
                </Stack>
              ) : '—',
          },
          { header: t('agents.failuresInRow'), cell: (r) => r.failuresInRow },
        ]}
      />
      {status.data && status.data.totalRows > rows.length ? (
        <Text size="xs" c="dimmed" mt="xs">
          {t('agents.devicesStatusMore', { shown: rows.length, total: status.data.totalRows })}
        </Text>
      ) : null}
    </Paper>
  );
}
