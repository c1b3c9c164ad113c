import { RUNS_OUT_RANGES } from '@pagewatch/contracts/home';
import { consumablesList, type ConsumableRow } from '@pagewatch/contracts/consumables';
import { columnsFromList, type ColumnLook } from '../../components/data-grid/grid-columns.ts';
import type { GridColumn } from '../../components/data-grid/grid-types.ts';
import { ColorSwatch, LevelBar } from '../../components/consumables/level-bar.tsx';
import { CoarseMark, ForecastDays, isCoarse } from '../../components/consumables/forecast-days.tsx';
import { SupplyOrderBadge } from '../../components/consumables/supply-order-badge.tsx';
import type { DeviceLookups } from '../../components/consumables/use-device-lookups.ts';
import { CodeLabel } from '../../components/code-label.tsx';

/** The consumables grid's looks (spec section 2, Consumables); fields, filters and sorts from the shared list spec. */
export function consumablesColumns(lookups: DeviceLookups): GridColumn<ConsumableRow>[] {
  const lookup = (kind: 'deviceType' | 'colorType' | 'paperFormat'): ColumnLook<ConsumableRow> => ({
    header: `devices.${kind}`,
    width: 130,
    type: 'lookup',
    options: lookups.options[kind],
    cell: (r) => lookups.label(kind, r[kind]),
  });
  return columnsFromList(consumablesList, {
    colorant: { header: 'devices.colorant.header', width: 80, cell: (r) => <ColorSwatch colorant={r.colorant} /> },
    partName: { header: 'devices.partName', width: 200 },
    partModelCode: { header: 'devices.partModelCode', width: 140 },
    partSerialNumber: { header: 'devices.partSerialNumber', width: 140 },
    level: {
      header: 'devices.level',
      width: 170,
      cell: (r) => (
        <>
          <LevelBar level={r.level} state={r.levelState} />
          {isCoarse(r) ? <CoarseMark /> : null}
        </>
      ),
    },
    daysLeft: {
      header: 'devices.daysLeft',
      width: 130,
      ranges: RUNS_OUT_RANGES.map((days) => ({ value: String(days), label: `devices.runsOutWithin.${days}`, condition: ['daysLeft', '<=', days] })),
      cell: (r) => <ForecastDays daysLeft={r.daysLeft} pagesLeft={r.pagesLeft} reason={r.forecastReason} partCode={r.partCode} level={r.level} levelStep={r.levelStep} /> },
    runsOutOn: { header: 'devices.runsOutOn', width: 120 },
    orderState: { header: 'supplyOrders.openOrder', width: 130, cell: (r) => (r.orderState ? <SupplyOrderBadge state={r.orderState} /> : null) },
    pagesLeft: { header: 'devices.pagesLeft', width: 120 },
    forecastReason: { header: 'devices.forecastReason', width: 170, cell: (r) => <ForecastDays daysLeft={null} pagesLeft={null} reason={r.forecastReason} /> },
    modelCode: { header: 'devices.modelCode', width: 170 },
    hostName: { header: 'devices.hostName', width: 130 },
    ip: { header: 'devices.ip', width: 120 },
    locationId: { header: 'devices.location', width: 150, type: 'lookup', options: lookups.options.locationId, cell: (r) => r.locationName },
    serialNumber: { header: 'devices.serialNumber', width: 140 },
    inventoryNumber: { header: 'devices.inventoryNumber', width: 130 },
    deviceType: lookup('deviceType'),
    colorType: lookup('colorType'),
    paperFormat: lookup('paperFormat'),
    refreshDate: { header: 'devices.refreshDate', width: 160 },
    partCode: { header: 'devices.partCode', width: 150, cell: (r) => <CodeLabel set="supplyType" code={r.partCode} /> },
    levelState: { header: 'devices.levelStateHeader', width: 130 },
    locationName: { header: 'devices.locationName', width: 150 },
    deviceId: { header: 'devices.id', width: 80 },
    levelStep: { header: 'devices.levelStep', width: 110 },
  });
}
