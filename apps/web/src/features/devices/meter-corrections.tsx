import { useState } from 'react';
import { Alert, Badge, Button, Group, NumberInput, Paper, Select, SimpleGrid, Table, Text, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CORRECTABLE_METERS, CORRECTION_LIMITS, meterCorrectionInputSchema, meterResetInputSchema, type MeterCorrection, type MeterCorrectionInput, type MeterResetInput } from '@pagewatch/contracts/meter-reads';
import { useTranslatedInput } from '../../components/form/use-translated-input.ts';
import { showServerErrors } from '../../components/form/server-errors.ts';
import { useAuth } from '../../lib/auth-context.tsx';
import { errorMessage, notifySuccess } from '../../lib/errors.ts';
import { formatNumber, formatDateTime, formatDay } from '../../lib/format.ts';
import { queryClient } from '../../lib/query-client.ts';
import { addCorrection, correctionsKey, fetchCorrections, resetCounters, withdrawCorrection } from './api/devices-api.ts';
import { submitFocusingErrors } from '../../components/form/submit-focusing-errors.ts';
import { TableHead } from '../../components/small-table.tsx';

type Values = { meter: MeterCorrectionInput['meter']; fromDate: string; offset: number | string; reason: string };
const EMPTY: Values = { meter: 'total', fromDate: '', offset: '', reason: '' };

/**
 * The device's meter corrections (issue 41): every one entered, withdrawn ones struck through
 * with who withdrew it and why; with BTN_EDIT_DEVICE.EXECUTE a form to enter one (checked by the
 * contract's schema, the server's field errors shown on their fields) and a way to withdraw one.
 */
export function MeterCorrections({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation();
  const { hasGrant } = useAuth();
  const canEdit = hasGrant('BTN_EDIT_DEVICE.EXECUTE');
  const list = useQuery({ queryKey: correctionsKey(deviceId), queryFn: () => fetchCorrections(deviceId) });
  const saved = (rows: MeterCorrection[]) => queryClient.setQueryData(correctionsKey(deviceId), rows);

  return (
    <Paper withBorder p="md" mt="md" data-testid="meter-corrections">
      <Title order={4} size="h5" mb="xs">
        {t('devices.corrections.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('devices.corrections.hint')}
      </Text>
      {list.error ? (
        <Alert color="red" role="alert">
          {errorMessage(list.error)}
        </Alert>
      ) : list.data?.length ? (
        <CorrectionsTable rows={list.data} deviceId={deviceId} canEdit={canEdit} onSaved={saved} />
      ) : (
        <Text size="sm">{list.isPending ? '…' : t('devices.corrections.none')}</Text>
      )}
      {canEdit ? <ResetForm deviceId={deviceId} onSaved={saved} /> : null}
      {canEdit ? <CorrectionForm deviceId={deviceId} onSaved={saved} /> : null}
    </Paper>
  );
}

function CorrectionsTable({ rows, deviceId, canEdit, onSaved }: { rows: MeterCorrection[]; deviceId: number; canEdit: boolean; onSaved: (rows: MeterCorrection[]) => void }) {
  const { t } = useTranslation();
  const [withdrawing, setWithdrawing] = useState<number | null>(null);
  const [reason, setReason] = useState('');
  const withdraw = useMutation({
    mutationFn: (id: number) => withdrawCorrection(deviceId, id, reason),
    onSuccess: (next) => {
      onSaved(next);
      setWithdrawing(null);
      setReason('');
      notifySuccess('updated');
    },
  });
  const when = (iso: string) => formatDateTime(iso);
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table data-testid="meter-corrections-table">
        <TableHead headers={[t('devices.corrections.meter'), t('devices.corrections.fromDate'), t('devices.corrections.offset'), t('devices.corrections.reason'), t('devices.corrections.entered'), null]} />
        <Table.Tbody>
          {rows.map((c) => (
            <Table.Tr key={c.id} td={c.withdrawnAt ? 'line-through' : undefined}>
              <Table.Td>
                {t(`meters.name.${c.meter}`)}
                {c.resetId !== null ? (
                  <Badge ml="xs" size="xs" variant="light" td="none">
                    {t('devices.corrections.resetOf', { id: c.resetId })}
                  </Badge>
                ) : null}
              </Table.Td>
              <Table.Td>{formatDay(c.fromDate)}</Table.Td>
              <Table.Td>{c.offset > 0 ? `+${formatNumber(c.offset)}` : formatNumber(c.offset)}</Table.Td>
              <Table.Td>{c.reason}</Table.Td>
              <Table.Td>{`${c.createdBy ?? '—'}, ${when(c.createdAt)}`}</Table.Td>
              <Table.Td>
                {c.withdrawnAt ? (
                  <Badge color="gray" variant="light" title={c.withdrawReason ?? ''}>
                    {t('devices.corrections.withdrawnBy', { user: c.withdrawnBy ?? '—', date: when(c.withdrawnAt), reason: c.withdrawReason ?? '' })}
                  </Badge>
                ) : canEdit && withdrawing === c.id ? (
                  <Group gap="xs" wrap="nowrap">
                    <TextInput size="xs" placeholder={t('devices.corrections.withdrawReason')} aria-label={t('devices.corrections.withdrawReason')} maxLength={CORRECTION_LIMITS.reason} value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
                    <Button size="xs" color="red" disabled={!reason.trim()} loading={withdraw.isPending} onClick={() => withdraw.mutate(c.id)}>
                      {t(c.resetId !== null ? 'devices.corrections.withdrawReset' : 'devices.corrections.withdraw')}
                    </Button>
                  </Group>
                ) : canEdit ? (
                  <Button size="xs" variant="subtle" color="red" onClick={() => setWithdrawing(c.id)}>
                    {t(c.resetId !== null ? 'devices.corrections.withdrawReset' : 'devices.corrections.withdraw')}
                  </Button>
                ) : null}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** A form that sends its values (checked by `schema`) and shows the answer's list, emptied after; the server's field errors on their fields. */
function useEntryForm<V extends Record<string, unknown>>(empty: V, schema: Parameters<typeof schemaResolver>[0], send: (v: V) => Promise<MeterCorrection[]>, onSaved: (rows: MeterCorrection[]) => void) {
  const form = useForm<V>({ initialValues: empty, validate: schemaResolver(schema, { sync: true }) });
  const save = useMutation({
    mutationFn: send,
    onSuccess: (rows) => {
      onSaved(rows);
      form.setValues(empty);
      notifySuccess('created');
    },
    onError: showServerErrors(form),
  });
  return { form, save, input: useTranslatedInput(form) };
}

function CorrectionForm({ deviceId, onSaved }: { deviceId: number; onSaved: (rows: MeterCorrection[]) => void }) {
  const { t } = useTranslation();
  const { form, save, input } = useEntryForm<Values>(EMPTY, meterCorrectionInputSchema, (v) => addCorrection(deviceId, meterCorrectionInputSchema.parse(v)), onSaved);
  return (
    <form onSubmit={submitFocusingErrors(form, (v) => save.mutate(v))} noValidate data-testid="meter-correction-form">
      <SimpleGrid cols={{ base: 1, sm: 4 }} spacing="sm" mt="md">
        <Select label={t('devices.corrections.meter')} required allowDeselect={false} data={CORRECTABLE_METERS.map((m) => ({ value: m, label: t(`meters.name.${m}`) }))} {...input('meter')} />
        <TextInput type="date" label={t('devices.corrections.fromDate')} required min="2022-01-01" max="2099-12-31" {...input('fromDate')} />
        <NumberInput label={t('devices.corrections.offset')} description={t('devices.corrections.offsetHint')} required allowDecimal={false} clampBehavior="none" {...input('offset')} />
        <TextInput label={t('devices.corrections.reason')} required maxLength={CORRECTION_LIMITS.reason} {...input('reason')} />
      </SimpleGrid>
      <Group justify="flex-end" mt="sm">
        <Button type="submit" loading={save.isPending} data-testid="meter-correction-add">
          {t('devices.corrections.add')}
        </Button>
      </Group>
    </form>
  );
}

const NO_RESET: MeterResetInput = { fromDate: '', reason: '' };

/** A counter reset (issue 54): one day and one reason, every meter carried over by the server at once. */
function ResetForm({ deviceId, onSaved }: { deviceId: number; onSaved: (rows: MeterCorrection[]) => void }) {
  const { t } = useTranslation();
  const { form, save, input } = useEntryForm<MeterResetInput>(NO_RESET, meterResetInputSchema, (v) => resetCounters(deviceId, meterResetInputSchema.parse(v)), onSaved);
  return (
    <form onSubmit={submitFocusingErrors(form, (v) => save.mutate(v))} noValidate data-testid="meter-reset-form">
      <Title order={5} size="h6" mt="md">
        {t('devices.corrections.resetTitle')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('devices.corrections.resetHint')}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm" mt="xs">
        <TextInput type="date" label={t('devices.corrections.resetDate')} required min="2022-01-01" max="2099-12-31" {...input('fromDate')} />
        <TextInput label={t('devices.corrections.reason')} required maxLength={CORRECTION_LIMITS.reason} {...input('reason')} />
        <Group align="flex-end">
          <Button type="submit" variant="light" loading={save.isPending} data-testid="meter-reset-add">
            {t('devices.corrections.resetAdd')}
          </Button>
        </Group>
      </SimpleGrid>
    </form>
  );
}
