import { ActionIcon, Button, Group, NumberInput, Paper, Select, SegmentedControl, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { BILLING_PERIODS, INCLUDED_PAGES_MODES, type Contract } from '@pagewatch/contracts/billing';
import { METERS, type Meter } from '@pagewatch/contracts/meter-reads';
import { showServerErrors } from '../../../components/form/server-errors.ts';
import { useTranslatedInput } from '../../../components/form/use-translated-input.ts';
import { createContract, updateContract } from '../api/contracts-api.ts';
import { emptyContract, inputOf, metersFree, validateContract, valuesOf, type ContractFormValues } from '../contract-form-values.ts';
import { submitFocusingErrors } from '../../../components/form/submit-focusing-errors.ts';
import { DayInput } from '../../../components/form/day-input.tsx';

/** A meter as the meter-read report names it, with its customary code ("Total (101)"). */
export function useMeterLabel() {
  const { t } = useTranslation();
  return (m: Meter) => `${t(`meters.name.${m}`)}${METERS[m].code ? ` (${METERS[m].code})` : ''}`;
}

/**
 * A contract made or changed (issue 54): every field of the API's, each checked by the
 * contracts' schema with its own message, and a click price with included pages for any meter
 * of the meter-read report (one row per meter).
 */
export function ContractForm(p: { contract: Contract | null; locations: { id: number; name: string }[]; onSaved: (c: Contract) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const meterLabel = useMeterLabel();
  const form = useForm<ContractFormValues>({ initialValues: p.contract ? valuesOf(p.contract) : emptyContract(), validate: validateContract, validateInputOnBlur: true });
  const input = useTranslatedInput(form);
  const save = useMutation({
    mutationFn: (v: ContractFormValues) => (p.contract ? updateContract(p.contract.id, inputOf(v)) : createContract(inputOf(v))),
    onSuccess: p.onSaved,
    onError: showServerErrors(form),
  });
  const rows = form.values.prices;
  const pricesError = form.errors.prices;
  return (
    <Paper withBorder p="md" data-testid="contract-form">
      <form onSubmit={submitFocusingErrors(form, (v) => save.mutate(v))} noValidate>
        <Title order={4} size="h5" mb="xs">{p.contract ? t('contracts.editTitle', { name: p.contract.name }) : t('contracts.new')}</Title>
        <Stack gap="sm">
          <Group align="start" wrap="wrap">
            <TextInput label={t('contracts.name')} required w={260} {...input('name')} data-testid="contract-name" />
            <Select label={t('devices.location')} required searchable w={240} data={p.locations.map((l) => ({ value: String(l.id), label: l.name }))} {...input('locationId')} data-testid="contract-location" />
            <NumberInput label={t('contracts.billingDay')} required min={1} max={28} allowDecimal={false} w={120} {...input('billingDay')} data-testid="contract-billing-day" />
            <Select label={t('contracts.period')} required allowDeselect={false} w={170} data={BILLING_PERIODS.map((v) => ({ value: v, label: t(`billing.period.${v}`) }))} {...input('period')} data-testid="contract-period" />
            <TextInput label={t('contracts.currency')} required w={100} {...input('currency')} data-testid="contract-currency" />
            <TextInput label={t('contracts.baseFee')} required w={130} {...input('baseFee')} data-testid="contract-fee" />
            <DayInput label={t('contracts.startsOn')} required clearable={false} w={140} {...input('startsOn')} data-testid="contract-starts" />
            <DayInput label={t('contracts.endsOn')} clearable description={t('contracts.endsOnHint')} w={160} {...input('endsOn')} data-testid="contract-ends" />
          </Group>
          <div>
            <Text size="sm" fw={500} mb={4}>{t('contracts.includedPagesMode')}</Text>
            <SegmentedControl data={INCLUDED_PAGES_MODES.map((v) => ({ value: v, label: t(`billing.includedPages.${v}`) }))} {...form.getInputProps('includedPages')} data-testid="contract-included-mode" />
          </div>
          <div>
            <Text size="sm" fw={500}>{t('contracts.prices')}</Text>
            <Table data-testid="contract-prices" withRowBorders={false} maw={720}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('billing.column.billingMeter')}</Table.Th>
                  <Table.Th>{t('contracts.price', { currency: form.values.currency })}</Table.Th>
                  <Table.Th>{t('contracts.includedPages')}</Table.Th>
                  <Table.Th w={40} />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row, i) => (
                  <Table.Tr key={i} data-testid={`price-row-${i}`}>
                    <Table.Td>
                      <Select aria-label={t('billing.column.billingMeter')} searchable allowDeselect={false} data={metersFree(rows, i).map((m) => ({ value: m, label: meterLabel(m) }))} {...input(`prices.${i}.meter`)} data-testid={`price-meter-${i}`} />
                    </Table.Td>
                    <Table.Td><TextInput aria-label={t('contracts.price', { currency: form.values.currency })} {...input(`prices.${i}.price`)} data-testid={`price-value-${i}`} /></Table.Td>
                    <Table.Td><NumberInput aria-label={t('contracts.includedPages')} min={0} allowDecimal={false} thousandSeparator=" " {...input(`prices.${i}.includedPages`)} data-testid={`price-included-${i}`} /></Table.Td>
                    <Table.Td>
                      <ActionIcon variant="subtle" color="red" aria-label={t('contracts.removePrice')} onClick={() => form.removeListItem('prices', i)} data-testid={`price-remove-${i}`}><IconTrash size={16} /></ActionIcon>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            {pricesError ? <Text c="red" size="sm" role="alert">{t(String(pricesError), { defaultValue: String(pricesError) })}</Text> : null}
            {rows.length < Object.keys(METERS).length ? (
              <Button variant="light" size="xs" mt={4} leftSection={<IconPlus size={14} />} onClick={() => form.insertListItem('prices', { meter: metersFree(rows, rows.length)[0] ?? null, price: '0.00', includedPages: 0 })} data-testid="price-add">
                {t('contracts.addPrice')}
              </Button>
            ) : null}
          </div>
          <Group>
            <Button type="submit" loading={save.isPending} data-testid="contract-save">{p.contract ? t('contracts.save') : t('contracts.create')}</Button>
            <Button variant="default" onClick={p.onCancel} data-testid="contract-cancel">{t('general.cancel')}</Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
