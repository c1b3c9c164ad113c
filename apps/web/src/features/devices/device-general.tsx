import { useState } from 'react';
import { Button, Group, Paper, Select, SimpleGrid, Stack, Switch, Table, Text, TextInput, Textarea, Title } from '@mantine/core';
import { IconDeviceFloppy, IconRefreshDot, IconTrash } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { DEVICE_STATUS_DEFS, type DeviceStatusCode } from '@pagewatch/contracts/device-events';
import { DEVICE_FLAGS, deviceUpdateSchema, type Device, type DeviceUpdate } from '@pagewatch/contracts/devices';
import { CodeBadge } from '../../components/code-badge.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { useConfirmedMutation } from '../../components/use-confirmed-mutation.ts';
import { useHasGrant } from '../../lib/auth-context.tsx';
import { errorMessage, notifyMessage, notifySuccess } from '../../lib/errors.ts';
import { queryClient } from '../../lib/query-client.ts';
import { deleteDevice, deviceKey, requestWalk, saveDevice } from './api/devices-api.ts';
import { DeviceCharts } from './device-charts.tsx';
import { DeviceWebPage } from './device-web-page.tsx';
import { FlagsWithText } from './device-flags.tsx';
import { ColorSwatch, LevelBar } from '../../components/consumables/level-bar.tsx';
import { SupplyOrderBadge } from '../../components/consumables/supply-order-badge.tsx';
import { useOpenOrders } from '../../components/consumables/use-open-orders.ts';
import { ForecastDays } from '../../components/consumables/forecast-days.tsx';
import { useDeviceLookups } from '../../components/consumables/use-device-lookups.ts';
import { sourceText } from './source-text.ts';
import classes from './devices.module.css';
import { formatNumber } from '../../lib/format.ts';

type Form = { inventoryNumber: string; locationId: string; comment: string; managedFlag: boolean };
const formOf = (d: Device): Form => ({ inventoryNumber: d.inventoryNumber ?? '', locationId: String(d.locationId), comment: d.comment ?? '', managedFlag: d.managedFlag });

/** General info: who the device is, what the console may change (saved with PUT), its supplies and charts. */
export function DeviceGeneral({ device }: { device: Device }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const canEdit = useHasGrant('MNU_DEVICES.EDIT');
  const canOpenWeb = useHasGrant('BTN_DEVICE_WEB.EXECUTE');
  const lookups = useDeviceLookups();
  const [form, setForm] = useState<Form>(() => formOf(device));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const dirty = JSON.stringify(form) !== JSON.stringify(formOf(device));

  const save = useMutation({
    mutationFn: (patch: DeviceUpdate) => saveDevice(device.id, patch),
    onSuccess: (d) => {
      queryClient.setQueryData(deviceKey(device.id), d);
      setForm(formOf(d));
      notifySuccess('updated');
    },
  });
  const remove = useConfirmedMutation({
    mutationFn: () => deleteDevice(device.id),
    onSuccess: () => {
      notifySuccess('deleted');
      void navigate('/devices');
    },
  });
  const walk = useMutation({
    mutationFn: () => requestWalk(device.id),
    onSuccess: (r) => {
      notifyMessage(r.message);
      void queryClient.invalidateQueries({ queryKey: deviceKey(device.id) });
    },
  });

  const submit = () => {
    const patch = { inventoryNumber: form.inventoryNumber.trim() || null, location: { id: Number(form.locationId) }, comment: form.comment || null, managedFlag: form.managedFlag };
    const checked = deviceUpdateSchema.safeParse(patch);
    if (!checked.success) {
      setErrors(Object.fromEntries(checked.error.issues.map((i) => [String(i.path[0]), t(i.message)])));
      return;
    }
    setErrors({});
    save.mutate(checked.data);
  };

  // The form's text fields: each shows its value and its error, and is read-only without the grant.
  const text = (key: 'inventoryNumber' | 'comment') => ({
    value: form[key],
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setForm({ ...form, [key]: e.currentTarget.value }),
    error: errors[key],
    readOnly: !canEdit,
  });
  const row = (label: string, value: React.ReactNode) => (
    <Table.Tr>
      <Table.Td className={classes.fieldLabel}>{label}</Table.Td>
      <Table.Td>{value ?? '—'}</Table.Td>
    </Table.Tr>
  );
  const dict = (kind: 'deviceType' | 'colorType' | 'paperFormat', v: string | null) => (v ? (lookups?.label(kind, v) ?? v) : null);

  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Paper withBorder p="md">
          <Table withRowBorders={false} verticalSpacing={4} data-testid="device-general">
            <Table.Tbody>
              {row(t('devices.modelCode'), device.modelCode)}
              {row(t('devices.serialNumber'), device.serialNumber)}
              {row(t('devices.ip'), device.ip)}
              {row(t('devices.hostName'), device.hostName)}
              {row(t('devices.snmpLocation'), device.snmpLocation)}
              {row(t('devices.deviceType'), dict('deviceType', device.deviceType))}
              {row(t('devices.colorType'), dict('colorType', device.colorType))}
              {row(t('devices.paperFormat'), dict('paperFormat', device.paperFormat))}
              {row(t('devices.statusCode'), <CodeBadge defs={DEVICE_STATUS_DEFS} code={device.statusCode as DeviceStatusCode} attr="status" />)}
              {row(
                t('devices.flags'),
                DEVICE_FLAGS.some((f) => device[f]) ? <FlagsWithText flags={DEVICE_FLAGS.filter((f) => device[f])} /> : null,
              )}
              {row(t('devices.totalCount'), device.totalCount === null ? undefined : formatNumber(device.totalCount))}
            </Table.Tbody>
          </Table>
        </Paper>
        <Paper withBorder p="md">
          <Stack gap="sm">
            <TextInput label={t('devices.inventoryNumber')} maxLength={100} {...text('inventoryNumber')} />
            <Select
              label={t('devices.location')}
              data={(lookups?.locations ?? []).map((l) => ({ value: String(l.id), label: l.name }))}
              value={form.locationId}
              onChange={(v) => v && setForm({ ...form, locationId: v })}
              error={errors.location}
              readOnly={!canEdit}
              searchable
              allowDeselect={false}
            />
            <Textarea label={t('devices.comment')} autosize minRows={2} maxRows={6} {...text('comment')} />
            <Switch label={t('devices.managedFlag')} checked={form.managedFlag} onChange={(e) => setForm({ ...form, managedFlag: e.currentTarget.checked })} disabled={!canEdit} />
            {canEdit ? (
              <Group justify="space-between">
                <Group gap="xs">
                  <Button leftSection={<IconDeviceFloppy size={16} />} disabled={!dirty} loading={save.isPending} onClick={submit}>
                    {t('devices.save')}
                  </Button>
                  <Button variant="default" leftSection={<IconRefreshDot size={16} />} loading={walk.isPending} onClick={() => walk.mutate()}>
                    {t('devices.updateWalk')}
                  </Button>
                </Group>
                <Button color="red" variant="light" leftSection={<IconTrash size={16} />} onClick={() => remove.ask()}>
                  {t('devices.delete')}
                </Button>
              </Group>
            ) : null}
            {save.error ? <Text c="red" size="sm">{errorMessage(save.error)}</Text> : null}
          </Stack>
        </Paper>
      </SimpleGrid>
      {canOpenWeb ? <DeviceWebPage deviceId={device.id} /> : null}
      <DeviceSupplies device={device} />
      <DeviceCharts deviceId={device.id} supplies={device.supplies} />
      <ConfirmDialog {...remove.dialog} title={t('devices.deleteTitle')} message={t('devices.deleteText', { name: device.serialNumber ?? device.ip })} confirmLabel={t('devices.delete')} />
    </Stack>
  );
}

/** The device's supplies: colour, part, level (and where it was read), forecast and open order. */
function DeviceSupplies({ device }: { device: Device }) {
  const { t } = useTranslation();
  const openOrders = useOpenOrders(device.id);
  return (
    <Paper withBorder p="md">
      <Title order={4} size="h5" mb="xs">
        {t('devices.supplies')}
      </Title>
      {device.supplies.length ? (
        <Table verticalSpacing={4} data-testid="device-supplies">
          <Table.Tbody>
            {device.supplies.map((s) => (
              <Table.Tr key={s.supplyIndex}>
                <Table.Td w={30}>
                  <ColorSwatch colorant={s.colorant} />
                </Table.Td>
                <Table.Td>{s.partName}</Table.Td>
                <Table.Td>{s.partModelCode ?? ''}</Table.Td>
                <Table.Td w="30%">
                  <LevelBar level={s.level} state={s.levelState} />
                  {s.levelSource ? (
                    <Text size="xs" c="dimmed" data-testid={`supply-source-${s.supplyIndex}`}>
                      {t('devices.levelSource')}: {sourceText(t, s.levelSource)}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td w={150} data-testid="supply-forecast">
                  <ForecastDays daysLeft={s.daysLeft} pagesLeft={s.pagesLeft} reason={s.forecastReason} partCode={s.partCode} />
                </Table.Td>
                <Table.Td w={130} data-testid="supply-order" title={openOrders.get(s.supplyIndex)?.reference ?? undefined}>
                  {openOrders.has(s.supplyIndex) ? <SupplyOrderBadge state={openOrders.get(s.supplyIndex)!.state} /> : null}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text size="sm" c="dimmed">
          {t('devices.noSupplies')}
        </Text>
      )}
    </Paper>
  );
}
