import { useEffect } from 'react';
import { Button, Group, NumberInput, Paper, SimpleGrid, Text, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { SUPPLY_ORDER_LIMITS, supplyOrderSettingsInputSchema, type SupplyOrderSettings } from '@pagewatch/contracts/supply-orders';
import { submitFocusingErrors } from '../../components/form/submit-focusing-errors.ts';
import { useTranslatedInput } from '../../components/form/use-translated-input.ts';
import { ApiError } from '../../lib/api.ts';
import { notifyError, notifySuccess } from '../../lib/errors.ts';
import { queryClient } from '../../lib/query-client.ts';
import { saveSettings, supplyOrderKeys } from './api/supply-orders-api.ts';

type Values = { leadDays: number | string; marginDays: number | string; supplierEmail: string };
const valuesOf = (s: SupplyOrderSettings): Values => ({ leadDays: s.leadDays, marginDays: s.marginDays, supplierEmail: s.supplierEmail ?? '' });

/** One location's lead time, margin and supplier e-mail (empty: its parent's, which the hint names). */
export function OrderSettings({ settings, canEdit }: { settings: SupplyOrderSettings; canEdit: boolean }) {
  const { t } = useTranslation();
  const form = useForm<Values>({ initialValues: valuesOf(settings), validate: schemaResolver(supplyOrderSettingsInputSchema, { sync: true }) });
  const input = useTranslatedInput(form);
  useEffect(() => {
    form.setValues(valuesOf(settings));
    form.resetDirty();
    // Only when another location (or a saved one) comes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settings]);
  const save = useMutation({
    mutationFn: (v: Values) => saveSettings(settings.locationId, supplyOrderSettingsInputSchema.parse(v)),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: supplyOrderKeys.all });
      notifySuccess('updated');
    },
    onError: (err) => {
      if (err instanceof ApiError && err.body?.details?.length) form.setErrors(Object.fromEntries(err.body.details.map((d) => [d.field, d.message])));
      notifyError(err);
    },
  });
  return (
    <Paper withBorder p="md" data-testid="order-settings">
      <Title order={4} size="h5" mb="xs">
        {t('supplyOrders.settingsTitle', { location: settings.locationName })}
      </Title>
      <form onSubmit={submitFocusingErrors(form, (v) => save.mutate(v))} noValidate>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <NumberInput label={t('supplyOrders.leadDays')} min={0} max={SUPPLY_ORDER_LIMITS.days} allowDecimal={false} clampBehavior="none" disabled={!canEdit} {...input('leadDays')} />
          <NumberInput label={t('supplyOrders.marginDays')} min={0} max={SUPPLY_ORDER_LIMITS.days} allowDecimal={false} clampBehavior="none" disabled={!canEdit} {...input('marginDays')} />
          <TextInput
            label={t('supplyOrders.supplierEmail')}
            type="email"
            maxLength={SUPPLY_ORDER_LIMITS.email}
            disabled={!canEdit}
            description={!settings.supplierEmail && settings.effectiveEmail ? t('supplyOrders.inheritedEmail', { email: settings.effectiveEmail }) : undefined}
            {...input('supplierEmail')}
          />
        </SimpleGrid>
        {canEdit ? (
          <Group justify="flex-end" mt="sm">
            <Button type="submit" loading={save.isPending} data-testid="order-settings-save">
              {t('supplyOrders.save')}
            </Button>
          </Group>
        ) : (
          <Text size="sm" c="dimmed" mt="xs">
            {t('supplyOrders.readOnly')}
          </Text>
        )}
      </form>
    </Paper>
  );
}
