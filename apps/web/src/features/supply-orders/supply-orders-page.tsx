import { useState } from 'react';
import { Alert, Button, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AppPage } from '../../components/layout/app-page.tsx';
import { useHasGrant } from '../../lib/auth-context.tsx';
import { errorMessage, notifyError } from '../../lib/errors.ts';
import { downloadSuggestions, fetchOrders, fetchSettings, fetchSuggestions, supplyOrderKeys } from './api/supply-orders-api.ts';
import { SuggestionsTable } from './suggestions-table.tsx';
import { OrdersTable } from './orders-table.tsx';
import { OrderSettings } from './order-settings.tsx';

/**
 * `/supply-orders` (issue 45): what to order in the caller's locations (or one of them), as a
 * file too; the open orders and their next steps; the chosen location's lead time, margin and
 * supplier. Ordering, shipping, cancelling and the settings need MNU_CONSUMABLES.EDIT.
 */
export function SupplyOrdersPage() {
  const { t } = useTranslation();
  const canEdit = useHasGrant('MNU_CONSUMABLES.EDIT');
  const [location, setLocation] = useState<number | null>(null);
  const settings = useQuery({ queryKey: supplyOrderKeys.settings, queryFn: fetchSettings });
  const suggestions = useQuery({ queryKey: supplyOrderKeys.suggestions(location), queryFn: () => fetchSuggestions(location) });
  const orders = useQuery({ queryKey: supplyOrderKeys.orders(location), queryFn: () => fetchOrders(location) });
  const download = useMutation({ mutationFn: (format: 'csv' | 'xlsx') => downloadSuggestions(format, location), onError: notifyError });
  const chosen = settings.data?.find((s) => s.locationId === location) ?? null;
  const failed = settings.error ?? suggestions.error ?? orders.error;

  const exportButton = (format: 'csv' | 'xlsx') => (
    <Button
      key={format}
      variant="default"
      leftSection={<IconDownload size={16} />}
      disabled={!suggestions.data?.length}
      loading={download.isPending && download.variables === format}
      onClick={() => download.mutate(format)}
      data-testid={`export-${format}`}
    >
      {format.toUpperCase()}
    </Button>
  );

  return (
    <AppPage title={t('nav.supplyOrders')} actions={[exportButton('csv'), exportButton('xlsx')]}>
      <Select
        label={t('devices.location')}
        placeholder={t('supplyOrders.allLocations')}
        clearable
        searchable
        maw={360}
        data={(settings.data ?? []).map((s) => ({ value: String(s.locationId), label: s.locationName }))}
        value={location ? String(location) : null}
        onChange={(v) => setLocation(v ? Number(v) : null)}
        data-testid="supply-orders-location"
      />
      {failed ? (
        <Alert color="red" role="alert">
          {errorMessage(failed)}
        </Alert>
      ) : null}
      <Stack gap="xs">
        <Title order={4} size="h5">
          {t('supplyOrders.toOrder')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('supplyOrders.toOrderHint')}
        </Text>
        <SuggestionsTable lines={suggestions.data ?? []} loading={suggestions.isPending} canOrder={canEdit} />
      </Stack>
      <Stack gap="xs">
        <Title order={4} size="h5">
          {t('supplyOrders.openOrders')}
        </Title>
        <OrdersTable orders={orders.data ?? []} loading={orders.isPending} canEdit={canEdit} />
      </Stack>
      {chosen ? (
        <OrderSettings settings={chosen} canEdit={canEdit} />
      ) : (
        <Paper withBorder p="md">
          <Text size="sm" c="dimmed">
            {t('supplyOrders.chooseLocation')}
          </Text>
        </Paper>
      )}
    </AppPage>
  );
}
