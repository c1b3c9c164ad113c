import { useState } from 'react';
import { Alert, Badge, Button, Group, NumberInput, Paper, Select, Stack, Table, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ContractInput } from '@pagewatch/contracts/billing';
import { AppPage } from '../../components/layout/app-page.tsx';
import { useHasGrant } from '../../lib/auth-context.tsx';
import { errorMessage, notifyError } from '../../lib/errors.ts';
import { addDevice, contractKeys, createContract, fetchContracts, fetchDevices, fetchLocationOptions, fetchRuns, makeRun } from './api/contracts-api.ts';
import { RunPanel } from './run-panel.tsx';
import { TableHead } from '../../components/small-table.tsx';

const today = () => new Date().toISOString().slice(0, 10);
const firstOfMonth = () => `${today().slice(0, 7)}-01`;

/**
 * `/contracts` (issue 54): the contracts of the caller's locations; a new one with its click
 * prices; a contract's devices by serial and its billing runs, each reviewed, closed and
 * downloaded in the run panel. Changes need MNU_BILLING.EDIT.
 */
export function ContractsPage() {
  const { t } = useTranslation();
  const canEdit = useHasGrant('MNU_BILLING.EDIT');
  const queries = useQueryClient();
  const contracts = useQuery({ queryKey: contractKeys.list, queryFn: fetchContracts });
  const locations = useQuery({ queryKey: contractKeys.locations, queryFn: fetchLocationOptions });
  const [chosen, setChosen] = useState<number | null>(null);
  const [run, setRun] = useState<number | null>(null);
  const [form, setForm] = useState({ name: '', locationId: '', billingDay: 1, period: 'MONTHLY', currency: 'EUR', baseFee: '0.00', startsOn: firstOfMonth(), mono: '0.01', color: '0.05', included: 0 });
  const reload = () => queries.invalidateQueries({ queryKey: contractKeys.all });
  const create = useMutation({
    mutationFn: () => {
      const body: ContractInput = {
        name: form.name, locationId: Number(form.locationId), billingDay: form.billingDay, period: form.period as ContractInput['period'], currency: form.currency, baseFee: form.baseFee,
        startsOn: form.startsOn, endsOn: null,
        prices: [{ meter: 'mono', price: form.mono, includedPages: form.included }, { meter: 'color', price: form.color, includedPages: 0 }],
      };
      return createContract(body);
    },
    onSuccess: (c) => { setChosen(c.id); void reload(); },
    onError: notifyError,
  });
  const contract = contracts.data?.find((c) => c.id === chosen) ?? null;

  return (
    <AppPage title={t('nav.contracts')}>
      {contracts.error ? <Alert color="red" role="alert">{errorMessage(contracts.error)}</Alert> : null}
      <Table striped highlightOnHover data-testid="contracts-table">
        <TableHead headers={[t('contracts.name'), t('devices.location'), t('contracts.period'), t('contracts.devices')]} />
        <Table.Tbody>
          {(contracts.data ?? []).map((c) => (
            <Table.Tr key={c.id} onClick={() => { setChosen(c.id); setRun(null); }} style={{ cursor: 'pointer' }} bg={c.id === chosen ? 'var(--mantine-color-blue-light)' : undefined}>
              <Table.Td>{c.name}</Table.Td>
              <Table.Td>{c.locationName}</Table.Td>
              <Table.Td>{t(`billing.period.${c.period}`)}, {t('contracts.billingDayIs', { day: c.billingDay })}</Table.Td>
              <Table.Td>{c.deviceCount}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {canEdit ? (
        <Paper withBorder p="md">
          <Title order={4} size="h5" mb="xs">{t('contracts.new')}</Title>
          <Group align="end" wrap="wrap">
            <TextInput label={t('contracts.name')} value={form.name} onChange={(e) => setForm({ ...form, name: e.currentTarget.value })} data-testid="contract-name" />
            <Select label={t('devices.location')} data={(locations.data?.pageRows ?? []).map((l) => ({ value: String(l.id), label: l.name }))} value={form.locationId || null}
              onChange={(v) => setForm({ ...form, locationId: v ?? '' })} searchable data-testid="contract-location" />
            <NumberInput label={t('contracts.billingDay')} min={1} max={28} value={form.billingDay} onChange={(v) => setForm({ ...form, billingDay: Number(v) || 1 })} w={110} />
            <Select label={t('contracts.period')} data={['MONTHLY', 'QUARTERLY'].map((p) => ({ value: p, label: t(`billing.period.${p}`) }))} value={form.period} onChange={(v) => setForm({ ...form, period: v ?? 'MONTHLY' })} w={160} />
            <TextInput label={t('contracts.currency')} value={form.currency} onChange={(e) => setForm({ ...form, currency: e.currentTarget.value })} w={90} />
            <TextInput label={t('contracts.baseFee')} value={form.baseFee} onChange={(e) => setForm({ ...form, baseFee: e.currentTarget.value })} w={110} data-testid="contract-fee" />
            <TextInput label={t('contracts.monoPrice')} value={form.mono} onChange={(e) => setForm({ ...form, mono: e.currentTarget.value })} w={130} />
            <TextInput label={t('contracts.colorPrice')} value={form.color} onChange={(e) => setForm({ ...form, color: e.currentTarget.value })} w={130} />
            <NumberInput label={t('contracts.included')} min={0} value={form.included} onChange={(v) => setForm({ ...form, included: Number(v) || 0 })} w={130} />
            <TextInput label={t('contracts.startsOn')} value={form.startsOn} onChange={(e) => setForm({ ...form, startsOn: e.currentTarget.value })} w={130} data-testid="contract-starts" />
            <Button onClick={() => create.mutate()} loading={create.isPending} data-testid="contract-create">{t('contracts.create')}</Button>
          </Group>
        </Paper>
      ) : null}
      {contract ? <ContractDetail id={contract.id} canEdit={canEdit} onRun={setRun} /> : null}
      {run ? <RunPanel id={run} canEdit={canEdit} /> : null}
    </AppPage>
  );
}

/** A contract's devices (add one by serial) and runs (make one for a period). */
function ContractDetail({ id, canEdit, onRun }: { id: number; canEdit: boolean; onRun: (run: number) => void }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const devices = useQuery({ queryKey: contractKeys.devices(id), queryFn: () => fetchDevices(id) });
  const runs = useQuery({ queryKey: contractKeys.runs(id), queryFn: () => fetchRuns(id) });
  const [serial, setSerial] = useState('');
  const [equipment, setEquipment] = useState('');
  const [joined, setJoined] = useState(firstOfMonth());
  const [period, setPeriod] = useState(firstOfMonth());
  const reload = () => queries.invalidateQueries({ queryKey: contractKeys.all });
  const add = useMutation({ mutationFn: () => addDevice(id, { serialNumber: serial, equipmentId: equipment || null, joinedOn: joined }), onSuccess: () => { setSerial(''); void reload(); }, onError: notifyError });
  const make = useMutation({ mutationFn: () => makeRun(id, period), onSuccess: (r) => { onRun(r.id); void reload(); }, onError: notifyError });
  return (
    <Group align="start" grow>
      <Paper withBorder p="md">
        <Title order={4} size="h5" mb="xs">{t('contracts.devices')}</Title>
        <Table data-testid="contract-devices">
          <Table.Tbody>
            {(devices.data ?? []).map((d) => (
              <Table.Tr key={d.id}>
                <Table.Td>{d.serialNumber}</Table.Td>
                <Table.Td>{d.equipmentId}</Table.Td>
                <Table.Td>{d.modelCode}</Table.Td>
                <Table.Td>{d.joinedOn} – {d.leftOn ?? ''}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {canEdit ? (
          <Group align="end" mt="xs">
            <TextInput label={t('devices.serialNumber')} value={serial} onChange={(e) => setSerial(e.currentTarget.value)} data-testid="device-serial" />
            <TextInput label={t('billing.column.billingEquipmentId')} value={equipment} onChange={(e) => setEquipment(e.currentTarget.value)} w={140} />
            <TextInput label={t('contracts.joinedOn')} value={joined} onChange={(e) => setJoined(e.currentTarget.value)} w={130} data-testid="device-joined" />
            <Button onClick={() => add.mutate()} loading={add.isPending} data-testid="device-add">{t('contracts.addDevice')}</Button>
          </Group>
        ) : null}
      </Paper>
      <Paper withBorder p="md">
        <Title order={4} size="h5" mb="xs">{t('contracts.runs')}</Title>
        <Stack gap={4} data-testid="contract-runs">
          {(runs.data ?? []).map((r) => (
            <Group key={r.id} gap="xs">
              <Button variant="subtle" size="compact-sm" onClick={() => onRun(r.id)}>{r.periodFrom} – {r.periodTo}</Button>
              <Badge color={r.state === 'CLOSED' ? 'gray' : 'blue'}>{t(`billing.state.${r.state}`)}</Badge>
              <span>{r.total} {r.currency}</span>
            </Group>
          ))}
        </Stack>
        {canEdit ? (
          <Group align="end" mt="xs">
            <TextInput label={t('contracts.periodFrom')} value={period} onChange={(e) => setPeriod(e.currentTarget.value)} w={140} data-testid="run-period" />
            <Button onClick={() => make.mutate()} loading={make.isPending} data-testid="run-make">{t('contracts.makeRun')}</Button>
          </Group>
        ) : null}
      </Paper>
    </Group>
  );
}
