import { useMemo } from 'react';
import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { devicePartsListSpec, type DevicePartRow } from '@pagewatch/contracts/devices';
import { DataGrid } from '../../components/data-grid/data-grid.tsx';
import { AppPage } from '../../components/layout/app-page.tsx';
import { consumablesColumns } from './consumables-list.tsx';
import { useDeviceLookups } from '../../components/device-parts/use-device-lookups.ts';

const rowId = (r: DevicePartRow) => r.id;
/** A row opens its device (spec section 2, Consumables). */
const rowHref = (r: DevicePartRow) => `/device/${r.device.id}`;

/** `/consumables`: every supply of every device in the caller's locations, with its level bar. */
export function ConsumablesPage() {
  const { t } = useTranslation();
  const lookups = useDeviceLookups();
  const columns = useMemo(() => (lookups ? consumablesColumns(lookups) : null), [lookups]);
  return (
    <AppPage title={t('nav.consumables')}>
      {columns ? (
        <DataGrid<DevicePartRow>
          gridKey="gridConsumables"
          endpoint={devicePartsListSpec.endpoint}
          columns={columns}
          defaultSort={devicePartsListSpec.defaultSort}
          getRowId={rowId}
          rowHref={rowHref}
        />
      ) : (
        <Center py="xl">
          <Loader size="sm" />
        </Center>
      )}
    </AppPage>
  );
}
