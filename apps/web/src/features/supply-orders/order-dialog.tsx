import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { SUPPLY_ORDER_LIMITS, supplyOrderInputSchema, type SupplySuggestion } from '@pagewatch/contracts/supply-orders';
import { submitFocusingErrors } from '../../components/form/submit-focusing-errors.ts';
import { useTranslatedInput } from '../../components/form/use-translated-input.ts';
import { ApiError } from '../../lib/api.ts';
import { notifyError, notifySuccess } from '../../lib/errors.ts';
import { queryClient } from '../../lib/query-client.ts';
import { placeOrder, supplyOrderKeys } from './api/supply-orders-api.ts';
import { codeLabel } from '../../lib/code-labels.ts';

type Values = { reference: string };
const schema = supplyOrderInputSchema.pick({ reference: true });

/** Orders every supply of a line of the what-to-order list, with an optional reference (the supplier's order number). */
export function OrderDialog({ line, onClose }: { line: SupplySuggestion; onClose: () => void }) {
  const { t } = useTranslation();
  const form = useForm<Values>({ initialValues: { reference: '' }, validate: schemaResolver(schema, { sync: true }) });
  const input = useTranslatedInput(form);
  const order = useMutation({
    mutationFn: (v: Values) => placeOrder({ supplies: line.supplies.map((s) => ({ deviceId: s.deviceId, supplyIndex: s.supplyIndex })), reference: v.reference.trim() || null }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: supplyOrderKeys.all });
      notifySuccess('created');
      onClose();
    },
    onError: (err) => {
      if (err instanceof ApiError && err.body?.details?.length) form.setErrors(Object.fromEntries(err.body.details.map((d) => [d.field, d.message])));
      notifyError(err);
    },
  });
  return (
    <Modal opened onClose={onClose} title={t('supplyOrders.orderTitle', { part: line.partModelCode ?? codeLabel(t, 'supplyType', line.partCode), count: line.count })}>
      <form onSubmit={submitFocusingErrors(form, (v) => order.mutate(v))} noValidate data-testid="order-form">
        <Stack gap="sm">
          <Text size="sm">{t('supplyOrders.orderHint', { location: line.locationName })}</Text>
          <TextInput label={t('supplyOrders.reference')} maxLength={SUPPLY_ORDER_LIMITS.reference} {...input('reference')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('general.cancel')}
            </Button>
            <Button type="submit" loading={order.isPending} data-testid="order-submit">
              {t('supplyOrders.order')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
