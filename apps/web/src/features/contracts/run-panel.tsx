import { useState } from 'react';
import { Badge, Button, Group, Paper, Table, Text, TextInput, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notifyError } from '../../lib/errors.ts';
import { formatDay, formatNumber } from '../../lib/format.ts';
import { closeRun, contractKeys, downloadRun, fetchRun, reviewDevice } from './api/contracts-api.ts';
import { TableHead } from '../../components/small-table.tsx';
import type { RunMeter } from '@pagewatch/contracts/billing';

/** A billing run: each device's reads and amount, a review of each flagged one, the close and the files. */
export function RunPanel({ id, canEdit }: { id: number; canEdit: boolean }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const run = useQuery({ queryKey: contractKeys.run(id), queryFn: () => fetchRun(id) });
  const [notes, setNotes] = useState<Record<number, string>>({});
  const reload = () => queries.invalidateQueries({ queryKey: contractKeys.all });
  const review = useMutation({ mutationFn: (device: number) => reviewDevice(id, device, notes[device] ?? ''), onSuccess: () => void reload(), onError: notifyError });
  const close = useMutation({ mutationFn: () => closeRun(id), onSuccess: () => void reload(), onError: notifyError });
  const download = useMutation({ mutationFn: (format: 'csv' | 'xlsx' | 'erp') => downloadRun(id, format), onError: notifyError });
  const r = run.data;
  if (!r) return null;
  const open = r.state === 'OPEN';
  return (
    <Paper withBorder p="md" data-testid="run-panel">
      <Group justify="space-between" mb="xs">
        <Title order={4} size="h5">
          {r.contractName}: {formatDay(r.periodFrom)} – {formatDay(r.periodTo)} <Badge color={open ? 'blue' : 'gray'} data-testid="run-state">{t(`billing.state.${r.state}`)}</Badge>
        </Title>
        <Group gap="xs">
          {(['csv', 'xlsx', 'erp'] as const).map((f) => (
            <Button key={f} variant="default" leftSection={<IconDownload size={16} />} onClick={() => download.mutate(f)} data-testid={`run-file-${f}`}>
              {t(`contracts.file.${f}`)}
            </Button>
          ))}
          {canEdit && open ? <Button onClick={() => close.mutate()} disabled={r.toReview > 0} loading={close.isPending} data-testid="run-close">{t('contracts.close')}</Button> : null}
        </Group>
      </Group>
      <Text size="sm" mb="xs" data-testid="run-total">{t('contracts.total', { total: r.total, currency: r.currency, count: r.toReview })}</Text>
      <Table striped data-testid="run-devices">
        <TableHead headers={[t('devices.serialNumber'), t('billing.column.billingMeter'), t('billing.column.billingOpening'), t('billing.column.billingClosing'), t('billing.column.billingPages'), t('billing.column.billingAmount'), t('billing.column.billingFlags')]} />
        <Table.Tbody>
          {r.devices.map((d) => (
            <Table.Tr key={d.id}>
              <Table.Td>{d.serialNumber}</Table.Td>
              <Table.Td>{d.meters.map((m) => <div key={m.meter}>{t(`meters.name.${m.meter}`)}</div>)}</Table.Td>
              <Table.Td>{d.meters.map((m) => <div key={m.meter}><BoundaryText read={m.opening} /></div>)}</Table.Td>
              <Table.Td>{d.meters.map((m) => <div key={m.meter}><BoundaryText read={m.closing} /></div>)}</Table.Td>
              <Table.Td>{d.meters.map((m) => <div key={m.meter}>{m.pages === null ? '—' : formatNumber(m.pages)}</div>)}</Table.Td>
              <Table.Td>{d.amount}</Table.Td>
              <Table.Td>
                {d.flags.map((f) => <Badge key={f} color="orange" mr={4}>{t(`meters.quality.${f}`)}</Badge>)}
                {d.flags.length && d.reviewedAt ? <Text size="xs">{t('contracts.reviewed', { who: d.reviewedBy, note: d.reviewNote })}</Text> : null}
                {d.flags.length && !d.reviewedAt && canEdit && open ? (
                  <Group gap={4} mt={4}>
                    <TextInput size="xs" placeholder={t('contracts.note')} value={notes[d.id] ?? ''} onChange={(e) => setNotes({ ...notes, [d.id]: e.currentTarget.value })} data-testid={`review-note-${d.serialNumber}`} />
                    <Button size="compact-xs" onClick={() => review.mutate(d.id)} data-testid={`review-${d.serialNumber}`}>{t('contracts.review')}</Button>
                  </Group>
                ) : null}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

/** A boundary read: its value, day and source, or a dash for a meter the device never gave. */
function BoundaryText({ read }: { read: RunMeter['opening'] }) {
  const { t } = useTranslation();
  if (read.value === null) return <>—</>;
  return <>{formatNumber(read.value)} ({formatDay(read.date)}{read.source ? `, ${t(`billing.source.${read.source}`)}` : ''})</>;
}
