import { useMemo } from 'react';
import { dmDeviceHistoryList, dmDeviceUserDaysList, type DmDeviceHistoryRow, type DmDeviceUserDayRow } from '@pagewatch/contracts/device-history';
import type { FilterExpression } from '@pagewatch/contracts/list';
import { useTranslation } from 'react-i18next';
import { DataGrid, type DataGridProps as GridProps } from '../../components/data-grid/data-grid.tsx';
import { columnsFromList } from '../../components/data-grid/grid-columns.ts';
import { formatDateTime, formatDay } from '../../lib/format.ts';

const userDaysColumns = columnsFromList(dmDeviceUserDaysList, {
  factDate: { header: 'devices.factDate', width: 140, cell: (r) => formatDay(r.factDate) },
  username: { header: 'devices.username', width: 220 },
  printedPageCount: { header: 'devices.printedPageCount', width: 160 },
  colorPageCount: { header: 'devices.colorPageCount', width: 160 },
  deviceId: { header: 'devices.id', width: 80 },
  id: { header: 'devices.rowId', width: 80 },
});

const ipColumns = columnsFromList(dmDeviceHistoryList, {
  ip: { header: 'devices.ip', width: 160 },
  oldIp: { header: 'devices.oldIp', width: 160 },
  dateFrom: { header: 'devices.dateFrom', width: 180 },
  dateTo: { header: 'devices.dateTo', width: 180, cell: (r) => (r.dateTo ? formatDateTime(r.dateTo) : <StillHere />) },
  deviceId: { header: 'devices.id', width: 80 },
  id: { header: 'devices.rowId', width: 80 },
});

/** An address still in use has no end date. */
function StillHere() {
  const { t } = useTranslation();
  return <i>{t('devices.stillInUse')}</i>;
}

/** One of the device's own grids: the list filtered to the device. */
function OfDevice<Row extends { id: string | number }>(props: { deviceId: number; gridKey: string; list: GridProps<Row>['list']; columns: GridProps<Row>['columns'] }) {
  const filter = useMemo((): FilterExpression => ['deviceId', '=', props.deviceId], [props.deviceId]);
  return <DataGrid<Row> gridKey={props.gridKey} list={props.list} columns={props.columns} baseFilter={filter} getRowId={(r) => r.id} height={460} />;
}

/** The device's pages per user per day (spec section 3, Device user day). */
export function DeviceUserDays({ deviceId }: { deviceId: number }) {
  return <OfDevice<DmDeviceUserDayRow> deviceId={deviceId} gridKey="gridDeviceUserDays" list={dmDeviceUserDaysList} columns={userDaysColumns} />;
}

/** The device's addresses by period: each from its change until the next one. */
export function DeviceIpHistory({ deviceId }: { deviceId: number }) {
  return <OfDevice<DmDeviceHistoryRow> deviceId={deviceId} gridKey="gridDeviceIpHistory" list={dmDeviceHistoryList} columns={ipColumns} />;
}
