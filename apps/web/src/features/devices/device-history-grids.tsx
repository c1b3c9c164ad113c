import { useMemo } from 'react';
import { dmDeviceHistoryList, dmDeviceUserDaysList, type DmDeviceHistoryRow, type DmDeviceUserDayRow } from '@pagewatch/contracts/devices';
import type { FilterExpression } from '@pagewatch/contracts/list';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { DATE_FORMAT } from '../../components/data-grid/grid-cell.tsx';
import { DataGrid } from '../../components/data-grid/data-grid.tsx';
import { columnsFromList } from '../../components/data-grid/grid-columns.ts';

const userDaysColumns = columnsFromList(dmDeviceUserDaysList, {
  factDate: { header: 'devices.factDate', width: 140, cell: (r) => dayjs(r.factDate).format('DD.MM.YYYY') },
  username: { header: 'devices.username', width: 220 },
  printedPageCount: { header: 'devices.printedPageCount', width: 160 },
  deviceId: { header: 'devices.id', width: 80 },
  id: { header: 'devices.rowId', width: 80 },
});

const ipColumns = columnsFromList(dmDeviceHistoryList, {
  ip: { header: 'devices.ip', width: 160 },
  oldIp: { header: 'devices.oldIp', width: 160 },
  dateFrom: { header: 'devices.dateFrom', width: 180 },
  dateTo: { header: 'devices.dateTo', width: 180, cell: (r) => (r.dateTo ? dayjs(r.dateTo).format(DATE_FORMAT) : <StillHere />) },
  deviceId: { header: 'devices.id', width: 80 },
  id: { header: 'devices.rowId', width: 80 },
});

/** An address still in use has no end date. */
function StillHere() {
  const { t } = useTranslation();
  return <i>{t('devices.stillInUse')}</i>;
}

const ofDevice = (deviceId: number): FilterExpression => ['deviceId', '=', deviceId];

/** The device's pages per user per day (spec section 3, Device user day). */
export function DeviceUserDays({ deviceId }: { deviceId: number }) {
  const filter = useMemo(() => ofDevice(deviceId), [deviceId]);
  return (
    <DataGrid<DmDeviceUserDayRow>
      gridKey="gridDeviceUserDays"
      list={dmDeviceUserDaysList}
      columns={userDaysColumns}
      baseFilter={filter}
      getRowId={(r) => r.id}
      height={460}
    />
  );
}

/** The device's addresses by period: each from its change until the next one. */
export function DeviceIpHistory({ deviceId }: { deviceId: number }) {
  const filter = useMemo(() => ofDevice(deviceId), [deviceId]);
  return (
    <DataGrid<DmDeviceHistoryRow>
      gridKey="gridDeviceIpHistory"
      list={dmDeviceHistoryList}
      columns={ipColumns}
      baseFilter={filter}
      getRowId={(r) => r.id}
      height={460}
    />
  );
}
