import { Badge } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { itemName, useStatusColors } from '../../components/dictionary-items/dictionary-items-api.ts';
import { AGENT_STATUS_DEFS } from '@pagewatch/contracts/agents';
import type { AgentStatus } from '@pagewatch/contracts/agent-api';
import { CodeBadge } from '../../components/code-badge.tsx';
import { SmallTable } from '../../components/small-table.tsx';
import { fetchLocationAgents, fetchLocationDevices, locationKeys } from './api/locations-api.ts';
import { formatDateTime } from '../../lib/format.ts';

/** A device status with its colour and name from the STATUS dictionary. */
export function StatusBadge({ code }: { code: string | null }) {
  const { i18n } = useTranslation();
  const colors = useStatusColors();
  const s = code ? colors.data?.[code] : undefined;
  return (
    <Badge color={s?.color ?? 'gray'} variant="light" size="sm">
      {s ? itemName(s, i18n.language) : (code ?? '—')}
    </Badge>
  );
}

export function LocationDevices({ locationId }: { locationId: number }) {
  const { t } = useTranslation();
  const devices = useQuery({ queryKey: locationKeys.devices(locationId), queryFn: () => fetchLocationDevices(locationId) });
  return (
    <SmallTable
      testId="location-devices"
      rows={devices.data?.pageRows ?? []}
      loading={devices.isFetching}
      rowKey={(d) => d.id}
      empty={t('locations.noDevices')}
      columns={[
        { header: t('locations.deviceName'), cell: (d) => d.name },
        { header: t('locations.ip'), cell: (d) => d.ip },
        { header: t('locations.serialNumber'), cell: (d) => d.serialNumber },
        { header: t('locations.status'), cell: (d) => <StatusBadge code={d.statusCode} /> },
      ]}
    />
  );
}

export function LocationAgents({ locationId }: { locationId: number }) {
  const { t } = useTranslation();
  const agents = useQuery({ queryKey: locationKeys.agents(locationId), queryFn: () => fetchLocationAgents(locationId) });
  return (
    <SmallTable
      testId="location-agents"
      rows={agents.data?.pageRows ?? []}
      loading={agents.isFetching}
      rowKey={(a) => a.id}
      empty={t('locations.noAgents')}
      columns={[
        { header: t('locations.agentName'), cell: (a) => a.name },
        { header: t('locations.agentStatus'), cell: (a) => <CodeBadge defs={AGENT_STATUS_DEFS} code={a.status as AgentStatus} attr="status" /> },
        { header: t('locations.lastContact'), cell: (a) => (a.lastContactAt ? formatDateTime(a.lastContactAt) : '—') },
        { header: t('locations.version'), cell: (a) => a.version ?? '—' },
      ]}
    />
  );
}
