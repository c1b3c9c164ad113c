import { useState } from 'react';
import { Anchor, Button, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { SupplySuggestion } from '@pagewatch/contracts/supply-orders';
import { SmallTable } from '../../components/small-table.tsx';
import { OrderDialog } from './order-dialog.tsx';
import { codeLabel } from '../../lib/code-labels.ts';
import { formatDay } from '../../lib/format.ts';

const day = (iso: string | null) => (iso ? formatDay(iso) : '—');

/** The what-to-order list: a line per location and part model with how many to order, the devices they are for, and (with EDIT) an order button. */
export function SuggestionsTable({ lines, loading, canOrder }: { lines: SupplySuggestion[]; loading: boolean; canOrder: boolean }) {
  const { t } = useTranslation();
  const [ordering, setOrdering] = useState<SupplySuggestion | null>(null);
  return (
    <>
      <SmallTable
        testId="supply-suggestions"
        rows={lines}
        loading={loading}
        rowKey={(l) => l.id}
        empty={t('supplyOrders.nothingToOrder')}
        columns={[
          { header: t('devices.location'), cell: (l) => l.locationName },
          { header: t('devices.partModelCode'), cell: (l) => l.partModelCode ?? '—' },
          { header: t('devices.partCode'), cell: (l) => codeLabel(t, 'supplyType', l.partCode) },
          { header: t('reports.column.orderCount'), cell: (l) => <Text fw={600} data-testid="order-count">{l.count}</Text> },
          { header: t('reports.column.earliestRunOut'), cell: (l) => day(l.earliest) },
          {
            header: t('supplyOrders.devices'),
            cell: (l) =>
              l.supplies.map((s, i) => (
                <span key={`${s.deviceId}-${s.supplyIndex}`}>
                  {i ? ', ' : ''}
                  <Anchor component={Link} to={`/device/${s.deviceId}`} size="sm">
                    {s.serialNumber ?? s.ip ?? s.deviceId}
                  </Anchor>
                  {s.level !== null ? ` (${s.level}%)` : ''}
                </span>
              )),
          },
          canOrder && {
            cell: (l) => (
              <Button size="xs" onClick={() => setOrdering(l)} data-testid="order-line">
                {t('supplyOrders.order')}
              </Button>
            ),
          },
        ]}
      />
      {ordering ? <OrderDialog line={ordering} onClose={() => setOrdering(null)} /> : null}
    </>
  );
}
