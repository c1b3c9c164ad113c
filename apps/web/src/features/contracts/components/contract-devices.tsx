import { useState } from 'react';
import { Alert, Button, Group, Paper, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ContractDevice } from '@pagewatch/contracts/billing';
import { showServerErrors } from '../../../components/form/server-errors.ts';
import { useTranslatedInput } from '../../../components/form/use-translated-input.ts';
import { TableHead } from '../../../components/small-table.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { addDevice, changeDevice, contractKeys, fetchDevices, removeDevice } from '../api/contracts-api.ts';
import { daysText, deviceChangeOf, deviceInputOf, emptyDevice, validateDevice, validateDeviceChange, type DeviceChangeValues, type DeviceFormValues } from '../contract-form-values.ts';
import { submitFocusingErrors } from '../../../components/form/submit-focusing-errors.ts';
import { DayInput } from '../../../components/form/day-input.tsx';

/**
 * A contract's devices by serial (issue 54): each with the days it joined and left; one added
 * from a day (and, if known, to a day); a device leaving mid-period gets its leave date here,
 * and is billed up to that day's read; one put on by mistake is removed (closed runs keep it).
 */
export function ContractDevices({ id, canEdit }: { id: number; canEdit: boolean }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const devices = useQuery({ queryKey: contractKeys.devices(id), queryFn: () => fetchDevices(id) });
  const [editing, setEditing] = useState<number | null>(null);
  const [removing, setRemoving] = useState<ContractDevice | null>(null);
  const form = useForm<DeviceFormValues>({ initialValues: emptyDevice(), validate: validateDevice });
  const input = useTranslatedInput(form);
  const reload = () => queries.invalidateQueries({ queryKey: contractKeys.all });
  const add = useMutation({
    mutationFn: (v: DeviceFormValues) => addDevice(id, deviceInputOf(v)),
    onSuccess: () => { form.setValues({ serialNumber: '', equipmentId: '', leftOn: '' }); void reload(); },
    onError: showServerErrors(form),
  });
  const remove = useMutation({
    mutationFn: (deviceId: number) => removeDevice(id, deviceId),
    onSuccess: () => { setRemoving(null); void reload(); },
  });
  return (
    <Paper withBorder p="md">
      <Title order={4} size="h5" mb="xs">{t('contracts.devices')}</Title>
      {devices.data?.length === 0 ? <Text c="dimmed" size="sm">{t('contracts.noDevices')}</Text> : null}
      {devices.data?.length ? (
        <Table striped data-testid="contract-devices">
          <TableHead headers={[t('devices.serialNumber'), t('billing.column.billingEquipmentId'), t('contracts.model'), t('contracts.onContract'), '']} />
          <Table.Tbody>
            {devices.data.map((d) => editing === d.id ? (
              <DeviceChange key={d.id} contractId={id} device={d} onDone={() => { setEditing(null); void reload(); }} onCancel={() => setEditing(null)} />
            ) : (
              <Table.Tr key={d.id} data-testid={`contract-device-${d.serialNumber}`}>
                <Table.Td>{d.serialNumber}</Table.Td>
                <Table.Td>{d.equipmentId}</Table.Td>
                <Table.Td>{d.modelCode ?? '—'}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{daysText(t, d.joinedOn, d.leftOn)}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{canEdit ? (
                  <Group gap={4} wrap="nowrap">
                    <Button size="compact-xs" variant="subtle" onClick={() => setEditing(d.id)} data-testid={`device-edit-${d.serialNumber}`}>{t('contracts.changeDevice')}</Button>
                    <Button size="compact-xs" variant="subtle" color="red" onClick={() => { remove.reset(); setRemoving(d); }} data-testid={`device-remove-${d.serialNumber}`}>{t('contracts.removeDevice')}</Button>
                  </Group>
                ) : null}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
      {remove.error ? <Alert color="red" role="alert" mt="xs" withCloseButton onClose={() => remove.reset()}>{errorMessage(remove.error)}</Alert> : null}
      <ConfirmDialog opened={removing !== null} title={t('contracts.removeDeviceTitle')} message={t('contracts.removeDeviceMessage', { serial: removing?.serialNumber ?? '' })}
        confirmLabel={t('contracts.removeDevice')} busy={remove.isPending} onConfirm={() => removing && remove.mutate(removing.id)} onClose={() => setRemoving(null)} />
      {canEdit ? (
        <form onSubmit={submitFocusingErrors(form, (v) => add.mutate(v))} noValidate>
          <Group align="start" mt="xs" wrap="wrap">
            <TextInput label={t('devices.serialNumber')} required w={180} {...input('serialNumber')} data-testid="device-serial" />
            <TextInput label={t('billing.column.billingEquipmentId')} w={150} {...input('equipmentId')} data-testid="device-equipment" />
            <DayInput label={t('contracts.joinedOn')} required clearable={false} w={140} {...input('joinedOn')} data-testid="device-joined" />
            <DayInput label={t('contracts.leftOn')} clearable w={140} {...input('leftOn')} data-testid="device-left" />
            <Button type="submit" mt={25} loading={add.isPending} data-testid="device-add">{t('contracts.addDevice')}</Button>
          </Group>
        </form>
      ) : null}
    </Paper>
  );
}

/** A device's row in change: its ERP equipment id and the day it left (empty: still on the contract). */
function DeviceChange(p: { contractId: number; device: ContractDevice; onDone: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const form = useForm<DeviceChangeValues>({ initialValues: { equipmentId: p.device.equipmentId ?? '', leftOn: p.device.leftOn ?? '' }, validate: (v) => validateDeviceChange(v, p.device.joinedOn) });
  const input = useTranslatedInput(form);
  const save = useMutation({ mutationFn: (v: DeviceChangeValues) => changeDevice(p.contractId, p.device.id, deviceChangeOf(v)), onSuccess: p.onDone, onError: showServerErrors(form) });
  return (
    <Table.Tr data-testid={`contract-device-${p.device.serialNumber}`}>
      <Table.Td>{p.device.serialNumber}</Table.Td>
      <Table.Td><TextInput size="xs" aria-label={t('billing.column.billingEquipmentId')} {...input('equipmentId')} data-testid="device-change-equipment" /></Table.Td>
      <Table.Td>{p.device.modelCode ?? '—'}</Table.Td>
      <Table.Td>
        <Group gap={4} align="start" wrap="nowrap">
          <Text size="sm" mt={4}>{daysText(t, p.device.joinedOn, null)}</Text>
          <DayInput size="xs" aria-label={t('contracts.leftOn')} clearable w={150} {...input('leftOn')} data-testid="device-change-left" />
        </Group>
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap">
          <Button size="compact-xs" onClick={() => submitFocusingErrors(form, (v) => save.mutate(v))()} loading={save.isPending} data-testid="device-change-save">{t('contracts.save')}</Button>
          <Button size="compact-xs" variant="default" onClick={p.onCancel}>{t('general.cancel')}</Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
