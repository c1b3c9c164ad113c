import { Badge } from '@mantine/core';
import { useQuery, type QueryKey } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { itemName, useStatusColors } from '../../components/dictionary-items/dictionary-items-api.ts';
import { AGENT_STATUS_DEFS } from '@pagewatch/contracts/agents';
import type { AgentStatus } from '@pagewatch/contracts/agent-api';
import { CodeBadge } from '../../components/code-badge.tsx';
import { SmallTable, type SmallColumn } from '../../components/small-table.tsx';
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

/** A location's rows of another kind (its devices, its agents), a page of them loaded by `queryFn`, in a small table. */
function LocationRows<Row extends { id: number }>(props: { testId: string; queryKey: QueryKey; queryFn: () => Promise<{ pageRows: Row[] }>; empty: string; columns: SmallColumn<Row>[] }) {
  const { testId, queryKey, queryFn, empty, columns } = props;
  const query = useQuery({ queryKey, queryFn });
  return <SmallTable testId={testId} rows={query.data?.pageRows ?? []} loading={query.isFetching} rowKey={(r) => r.id} empty={empty} columns={columns} />;
}

export function LocationDevices({ locationId }: { locationId: number }) {
  const { t } = useTranslation();
  return (
    <LocationRows testId="location-devices" queryKey={locationKeys.devices(locationId)} queryFn={() => fetchLocationDevices(locationId)} empty={t('locations.noDevices')} columns={[
      { header: t('locations.deviceName'), cell: (d) => d.name },
      { header: t('locations.ip'), cell: (d) => d.ip },
      { header: t('locations.serialNumber'), cell: (d) => d.serialNumber },
      { header: t('locations.status'), cell: (d) => <StatusBadge code={d.statusCode} /> },
    ]} />
  );
}

export function LocationAgents({ locationId }: { locationId: number }) {
  const { t } = useTranslation();
  return (
    <LocationRows testId="location-agents" queryKey={locationKeys.agents(locationId)} queryFn={() => fetchLocationAgents(locationId)} empty={t('locations.noAgents')} columns={[
      { header: t('locations.agentName'), cell: (a) => a.name },
      { header: t('locations.agentStatus'), cell: (a) => <CodeBadge defs={AGENT_STATUS_DEFS} code={a.status as AgentStatus} attr="status" /> },
      { header: t('locations.lastContact'), cell: (a) => (a.lastContactAt ? formatDateTime(a.lastContactAt) : '—') },
      { header: t('locations.version'), cell: (a) => a.version ?? '—' },
    ]} />
  );
}
