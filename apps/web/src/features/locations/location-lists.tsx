import { Badge, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { itemName, useStatusColors } from '../../components/dictionary-items/dictionary-items-api.ts';
import { fetchLocationAgents, fetchLocationDevices } from './api/locations-api.ts';

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
  const devices = useQuery({ queryKey: ['location-devices', locationId], queryFn: () => fetchLocationDevices(locationId) });
  const rows = devices.data?.pageRows ?? [];
  if (!devices.isFetching && rows.length === 0) return <Text c="dimmed" size="sm">{t('locations.noDevices')}</Text>;
  return (
    <Table striped withTableBorder data-testid="location-devices">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('locations.deviceName')}</Table.Th>
          <Table.Th>{t('locations.ip')}</Table.Th>
          <Table.Th>{t('locations.serialNumber')}</Table.Th>
          <Table.Th>{t('locations.status')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((d) => (
          <Table.Tr key={d.id}>
            <Table.Td>{d.name}</Table.Td>
            <Table.Td>{d.ip}</Table.Td>
            <Table.Td>{d.serialNumber}</Table.Td>
            <Table.Td><StatusBadge code={d.statusCode} /></Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export function LocationAgents({ locationId }: { locationId: number }) {
  const { t } = useTranslation();
  const agents = useQuery({ queryKey: ['location-agents', locationId], queryFn: () => fetchLocationAgents(locationId) });
  const rows = agents.data?.pageRows ?? [];
  if (!agents.isFetching && rows.length === 0) return <Text c="dimmed" size="sm">{t('locations.noAgents')}</Text>;
  return (
    <Table striped withTableBorder data-testid="location-agents">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('locations.agentName')}</Table.Th>
          <Table.Th>{t('locations.agentStatus')}</Table.Th>
          <Table.Th>{t('locations.lastContact')}</Table.Th>
          <Table.Th>{t('locations.version')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((a) => (
          <Table.Tr key={a.id}>
            <Table.Td>{a.name}</Table.Td>
            <Table.Td>{a.status}</Table.Td>
            <Table.Td>{a.lastContactAt ? new Date(a.lastContactAt).toLocaleString() : '—'}</Table.Td>
            <Table.Td>{a.version ?? '—'}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
