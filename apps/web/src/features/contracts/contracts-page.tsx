import { useState } from 'react';
import { Alert, Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Contract } from '@pagewatch/contracts/billing';
import { AppPage } from '../../components/layout/app-page.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { TableHead } from '../../components/small-table.tsx';
import { useHasGrant } from '../../lib/auth-context.tsx';
import { errorMessage, notifyError } from '../../lib/errors.ts';
import { contractKeys, deleteContract, fetchContracts, fetchLocationOptions, fetchRuns, makeRun } from './api/contracts-api.ts';
import { ContractDevices } from './components/contract-devices.tsx';
import { ContractForm, useMeterLabel } from './components/contract-form.tsx';
import { daysText, firstOfMonth } from './contract-form-values.ts';
import { formatDay, formatNumber } from '../../lib/format.ts';
import { RunPanel } from './run-panel.tsx';
import { DayInput } from '../../components/form/day-input.tsx';

/**
 * `/contracts` (issue 54): the contracts of the caller's locations; one made, changed (every
 * field, click prices for any meter) or deleted (not once a run of it is closed: the server says
 * so); a contract's devices by serial, joining and leaving, and its billing runs, each reviewed,
 * closed and downloaded in the run panel. Changes need MNU_BILLING.EDIT.
 */
export function ContractsPage() {
  const { t } = useTranslation();
  const canEdit = useHasGrant('MNU_BILLING.EDIT');
  const queries = useQueryClient();
  const contracts = useQuery({ queryKey: contractKeys.list, queryFn: fetchContracts });
  const locations = useQuery({ queryKey: contractKeys.locations, queryFn: fetchLocationOptions, enabled: canEdit });
  const [chosen, setChosen] = useState<number | null>(null);
  const [run, setRun] = useState<number | null>(null);
  /** The form shown: null none, 'new' a new contract, 'edit' the chosen one. */
  const [editing, setEditing] = useState<'new' | 'edit' | null>(null);
  const [deleting, setDeleting] = useState(false);
  const reload = () => queries.invalidateQueries({ queryKey: contractKeys.all });
  const remove = useMutation({
    mutationFn: (id: number) => deleteContract(id),
    // The refusal (a closed run) stays on the page as an alert, not a passing toast.
    meta: { silent: true },
    onSuccess: () => { setChosen(null); setRun(null); void reload(); },
    onSettled: () => setDeleting(false),
  });
  const contract = contracts.data?.find((c) => c.id === chosen) ?? null;
  const saved = (c: Contract) => { setEditing(null); setChosen(c.id); void reload(); };

  return (
    <AppPage title={t('nav.contracts')}>
      {contracts.error ? <Alert color="red" role="alert">{errorMessage(contracts.error)}</Alert> : null}
      {canEdit && editing === null ? (
        <Group><Button leftSection={<IconPlus size={16} />} onClick={() => { setEditing('new'); remove.reset(); }} data-testid="contract-new">{t('contracts.new')}</Button></Group>
      ) : null}
      {editing ? (
        <ContractForm key={editing === 'edit' ? contract?.id : 'new'} contract={editing === 'edit' ? contract : null} locations={locations.data?.pageRows ?? []} onSaved={saved} onCancel={() => setEditing(null)} />
      ) : null}
      {contracts.data?.length === 0 ? <Text c="dimmed" size="sm" data-testid="contracts-empty">{t('contracts.noContracts')}</Text> : null}
      {contracts.data?.length ? (
        <Table striped highlightOnHover data-testid="contracts-table">
          <TableHead headers={[t('contracts.name'), t('devices.location'), t('contracts.period'), t('contracts.dates'), t('contracts.devices')]} />
          <Table.Tbody>
            {(contracts.data ?? []).map((c) => (
              <Table.Tr key={c.id} onClick={() => { setChosen(c.id); setRun(null); remove.reset(); if (editing === 'edit') setEditing(null); }} style={{ cursor: 'pointer' }} bg={c.id === chosen ? 'var(--mantine-color-blue-light)' : undefined}>
                <Table.Td>{c.name}</Table.Td>
                <Table.Td>{c.locationName}</Table.Td>
                <Table.Td>{t(`billing.period.${c.period}`)}, {t('contracts.billingDayIs', { day: c.billingDay })}</Table.Td>
                <Table.Td>{daysText(t, c.startsOn, c.endsOn)}</Table.Td>
                <Table.Td>{formatNumber(c.deviceCount)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
      {contract ? (
        <>
          <ContractSummary contract={contract} canEdit={canEdit} onEdit={() => setEditing('edit')} onDelete={() => setDeleting(true)} />
          {remove.error ? <Alert color="red" role="alert" data-testid="contract-delete-error" withCloseButton onClose={() => remove.reset()}>{errorMessage(remove.error)}</Alert> : null}
          <ContractDetail id={contract.id} canEdit={canEdit} onRun={setRun} />
          <ConfirmDialog opened={deleting} title={t('contracts.deleteTitle')} message={t('contracts.deleteMessage', { name: contract.name })} confirmLabel={t('contracts.delete')}
            busy={remove.isPending} onConfirm={() => remove.mutate(contract.id)} onClose={() => setDeleting(false)} />
        </>
      ) : null}
      {run ? <RunPanel id={run} canEdit={canEdit} /> : null}
    </AppPage>
  );
}

/** The chosen contract's terms: fee, included pages, each meter's price; its edit and delete. */
function ContractSummary({ contract: c, canEdit, onEdit, onDelete }: { contract: Contract; canEdit: boolean; onEdit: () => void; onDelete: () => void }) {
  const { t } = useTranslation();
  const meterLabel = useMeterLabel();
  return (
    <Paper withBorder p="md" data-testid="contract-summary">
      <Group justify="space-between" align="start">
        <Stack gap={4}>
          <Title order={4} size="h5">{c.name}</Title>
          <Text size="sm">{t('contracts.terms', { fee: c.baseFee, currency: c.currency, period: t(`billing.period.${c.period}`), included: t(`billing.includedPages.${c.includedPages}`) })}</Text>
          <Group gap="xs" data-testid="contract-summary-prices">
            {c.prices.map((p) => <Badge key={p.meter} variant="light" tt="none">{t('contracts.priceOf', { meter: meterLabel(p.meter), price: p.price, currency: c.currency, included: p.includedPages })}</Badge>)}
          </Group>
        </Stack>
        {canEdit ? (
          <Group gap="xs">
            <Button variant="default" leftSection={<IconPencil size={16} />} onClick={onEdit} data-testid="contract-edit">{t('contracts.edit')}</Button>
            <Button variant="light" color="red" leftSection={<IconTrash size={16} />} onClick={onDelete} data-testid="contract-delete">{t('contracts.delete')}</Button>
          </Group>
        ) : null}
      </Group>
    </Paper>
  );
}

/** A contract's devices and runs (make one for a period). */
function ContractDetail({ id, canEdit, onRun }: { id: number; canEdit: boolean; onRun: (run: number) => void }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const runs = useQuery({ queryKey: contractKeys.runs(id), queryFn: () => fetchRuns(id) });
  const [period, setPeriod] = useState(firstOfMonth());
  const make = useMutation({ mutationFn: () => makeRun(id, period), onSuccess: (r) => { onRun(r.id); void queries.invalidateQueries({ queryKey: contractKeys.all }); }, onError: notifyError });
  return (
    <Group align="start" grow preventGrowOverflow={false} wrap="nowrap">
      <ContractDevices id={id} canEdit={canEdit} />
      <Paper withBorder p="md">
        <Title order={4} size="h5" mb="xs">{t('contracts.runs')}</Title>
        <Stack gap={4} data-testid="contract-runs">
          {(runs.data ?? []).map((r) => (
            <Group key={r.id} gap="xs">
              <Button variant="subtle" size="compact-sm" onClick={() => onRun(r.id)}>{formatDay(r.periodFrom)} – {formatDay(r.periodTo)}</Button>
              <Badge color={r.state === 'CLOSED' ? 'gray' : 'blue'}>{t(`billing.state.${r.state}`)}</Badge>
              <span>{r.total} {r.currency}</span>
            </Group>
          ))}
        </Stack>
        {canEdit ? (
          <Group align="end" mt="xs">
            <DayInput label={t('contracts.periodFrom')} clearable={false} value={period} onChange={setPeriod} w={140} data-testid="run-period" />
            <Button onClick={() => make.mutate()} loading={make.isPending} data-testid="run-make">{t('contracts.makeRun')}</Button>
          </Group>
        ) : null}
      </Paper>
    </Group>
  );
}
