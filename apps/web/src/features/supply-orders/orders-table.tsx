import { Anchor, Button, Group } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { SupplyOrder } from '@pagewatch/contracts/supply-orders';
import { SmallTable } from '../../components/small-table.tsx';
import { SupplyOrderBadge } from '../../components/consumables/supply-order-badge.tsx';
import { notifyError, notifySuccess } from '../../lib/errors.ts';
import { queryClient } from '../../lib/query-client.ts';
import { cancelOrder, shipOrder, supplyOrderKeys } from './api/supply-orders-api.ts';
import { formatDateTime } from '../../lib/format.ts';

const when = (iso: string) => formatDateTime(iso);

/** The open orders: what, for which device, its state, who ordered it and when; with EDIT, ship and cancel. */
export function OrdersTable({ orders, loading, canEdit }: { orders: SupplyOrder[]; loading: boolean; canEdit: boolean }) {
  const { t } = useTranslation();
  const move = useMutation({
    mutationFn: ({ id, to }: { id: number; to: 'ship' | 'cancel' }) => (to === 'ship' ? shipOrder(id) : cancelOrder(id)),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: supplyOrderKeys.all });
      notifySuccess('updated');
    },
    onError: notifyError,
  });
  return (
    <SmallTable
      testId="supply-orders"
      rows={orders}
      loading={loading}
      rowKey={(o) => o.id}
      empty={t('supplyOrders.noOpenOrders')}
      columns={[
        { header: t('devices.location'), cell: (o) => o.locationName },
        { header: t('devices.serialNumber'), cell: (o) => <Anchor component={Link} to={`/device/${o.deviceId}`} size="sm">{o.serialNumber ?? o.deviceId}</Anchor> },
        { header: t('devices.partModelCode'), cell: (o) => o.partModelCode ?? o.partName ?? '—' },
        { header: t('supplyOrders.stateColumn'), cell: (o) => <SupplyOrderBadge state={o.state} /> },
        { header: t('supplyOrders.reference'), cell: (o) => o.reference ?? '—' },
        { header: t('supplyOrders.ordered'), cell: (o) => `${o.orderedBy ?? '—'}, ${when(o.orderedAt)}` },
        canEdit && {
          cell: (o) => (
            <Group gap="xs" wrap="nowrap">
              {o.state === 'ORDERED' ? (
                <Button size="xs" variant="light" onClick={() => move.mutate({ id: o.id, to: 'ship' })} data-testid="order-ship">
                  {t('supplyOrders.ship')}
                </Button>
              ) : null}
              <Button size="xs" variant="subtle" color="red" onClick={() => move.mutate({ id: o.id, to: 'cancel' })} data-testid="order-cancel">
                {t('supplyOrders.cancelOrder')}
              </Button>
            </Group>
          ),
        },
      ]}
    />
  );
}
