import { DEVICE_FLAGS, devicesList, type DeviceFlag, type DeviceListRow } from '@pagewatch/contracts/devices';
import { columnsFromList, type ColumnLook } from '../../components/data-grid/grid-columns.ts';
import type { GridColumn } from '../../components/data-grid/grid-types.ts';
import { FlagIcon, FLAG_LOOK } from './device-flags.tsx';
import { LevelBar } from '../../components/consumables/level-bar.tsx';
import type { DeviceLookups } from '../../components/consumables/use-device-lookups.ts';

const count = (v: number | null) => (v === null ? '' : v.toLocaleString());
const toner = (field: 'tonerBlack' | 'tonerCyan' | 'tonerMagenta' | 'tonerYellow', header: string): ColumnLook<DeviceListRow> => ({
  header,
  width: 110,
  cell: (r) => (r[field] === null ? null : <LevelBar level={r[field]} compact />),
});
const flag = (f: DeviceFlag): ColumnLook<DeviceListRow> => ({
  header: FLAG_LOOK[f].headerKey,
  width: 96,
  cell: (r) => <FlagIcon flag={f} on={r[f]} />,
});

/** The devices grid's looks; fields, filters and sorts come from the shared list spec. */
export function devicesColumns(lookups: DeviceLookups): GridColumn<DeviceListRow>[] {
  const lookup = (kind: 'deviceType' | 'colorType' | 'paperFormat'): ColumnLook<DeviceListRow> => ({
    header: `devices.${kind}`,
    width: 130,
    type: 'lookup',
    options: lookups.options[kind],
    cell: (r) => lookups.label(kind, r[kind]),
  });
  return columnsFromList(devicesList, {
    modelCode: { header: 'devices.modelCode', width: 180 },
    serialNumber: { header: 'devices.serialNumber', width: 150 },
    inventoryNumber: { header: 'devices.inventoryNumber', width: 130 },
    snmpLocation: { header: 'devices.snmpLocation', width: 140 },
    hostName: { header: 'devices.hostName', width: 140 },
    locationId: { header: 'devices.location', width: 160, type: 'lookup', options: lookups.options.locationId, cell: (r) => r.locationName },
    ip: { header: 'devices.ip', width: 120 },
    deviceType: lookup('deviceType'),
    colorType: lookup('colorType'),
    paperFormat: lookup('paperFormat'),
    totalCount: { header: 'devices.totalCount', width: 110, cell: (r) => count(r.totalCount) },
    monoCount: { header: 'devices.monoCount', width: 110, cell: (r) => count(r.monoCount) },
    colorCount: { header: 'devices.colorCount', width: 110, cell: (r) => count(r.colorCount) },
    tonerBlack: toner('tonerBlack', 'devices.tonerBlack'),
    tonerCyan: toner('tonerCyan', 'devices.tonerCyan'),
    tonerMagenta: toner('tonerMagenta', 'devices.tonerMagenta'),
    tonerYellow: toner('tonerYellow', 'devices.tonerYellow'),
    ...Object.fromEntries(DEVICE_FLAGS.map((f) => [f, flag(f)])),
    managedFlag: { header: 'devices.managedFlag', width: 110 },
    statusCode: { header: 'devices.statusCode', width: 110 },
    refreshedAt: { header: 'devices.refreshedAt', width: 160 },
    createdAt: { header: 'devices.createdAt', width: 160 },
    macAddress: { header: 'devices.macAddress', width: 150 },
    firmware: { header: 'devices.firmware', width: 140 },
    a3Count: { header: 'devices.a3Count', width: 100, cell: (r) => count(r.a3Count) },
    a4Count: { header: 'devices.a4Count', width: 100, cell: (r) => count(r.a4Count) },
    copyCount: { header: 'devices.copyCount', width: 100, cell: (r) => count(r.copyCount) },
    scanCount: { header: 'devices.scanCount', width: 100, cell: (r) => count(r.scanCount) },
    modelVendorCode: { header: 'devices.modelVendorCode', width: 120 },
    hasWalk: { header: 'devices.hasWalk', width: 110 },
    id: { header: 'devices.id', width: 80 },
  });
}
