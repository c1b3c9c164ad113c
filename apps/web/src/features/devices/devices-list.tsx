import { DEVICE_FLAGS, devicesList, type DeviceFlag, type DeviceListRow } from '@pagewatch/contracts/devices';
import { DEVICE_STATUS_CODES, DEVICE_STATUS_DEFS } from '@pagewatch/contracts/device-events';
import { columnsFromList, type ColumnLook } from '../../components/data-grid/grid-columns.ts';
import type { GridColumn } from '../../components/data-grid/grid-types.ts';
import { FlagIcon, FLAG_LOOK } from './device-flags.tsx';
import { CounterValue, DerivedNames, isDerived } from './counter-value.tsx';
import { LevelBar } from '../../components/consumables/level-bar.tsx';
import type { DeviceLookups } from '../../components/consumables/use-device-lookups.ts';
import { formatNumber } from '../../lib/format.ts';

const count = (v: number | null) => (v === null ? '' : formatNumber(v));
/** A counter column: unknown stays empty, a derived value is marked. */
const counterLook = (field: 'monoCount' | 'colorCount' | 'a3Count' | 'a3BwCount' | 'a3ColorCount' | 'a4Count' | 'a4BwCount' | 'a4ColorCount', header: string, width = 110): ColumnLook<DeviceListRow> => ({
  header,
  width,
  cell: (r) => <CounterValue value={r[field]} derived={isDerived(r.derivedCounters, field)} />,
});
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
    monoCount: counterLook('monoCount', 'devices.monoCount'),
    colorCount: counterLook('colorCount', 'devices.colorCount'),
    tonerBlack: toner('tonerBlack', 'devices.tonerBlack'),
    tonerCyan: toner('tonerCyan', 'devices.tonerCyan'),
    tonerMagenta: toner('tonerMagenta', 'devices.tonerMagenta'),
    tonerYellow: toner('tonerYellow', 'devices.tonerYellow'),
    ...Object.fromEntries(DEVICE_FLAGS.map((f) => [f, flag(f)])),
    managedFlag: { header: 'devices.managedFlag', width: 110 },
    statusCode: {
      header: 'devices.statusCode',
      width: 120,
      type: 'lookup',
      options: DEVICE_STATUS_CODES.map((s) => ({ value: s, label: DEVICE_STATUS_DEFS[s].labelKey })),
    },
    refreshedAt: { header: 'devices.refreshedAt', width: 160 },
    createdAt: { header: 'devices.createdAt', width: 160 },
    macAddress: { header: 'devices.macAddress', width: 150 },
    firmware: { header: 'devices.firmware', width: 140 },
    a3Count: counterLook('a3Count', 'devices.a3Count', 100),
    a3BwCount: counterLook('a3BwCount', 'devices.a3BwCount'),
    a3ColorCount: counterLook('a3ColorCount', 'devices.a3ColorCount'),
    a4Count: counterLook('a4Count', 'devices.a4Count', 100),
    a4BwCount: counterLook('a4BwCount', 'devices.a4BwCount'),
    a4ColorCount: counterLook('a4ColorCount', 'devices.a4ColorCount'),
    equivalentCount: { header: 'devices.equivalentCount', width: 130, cell: (r) => count(r.equivalentCount) },
    derivedCounters: { header: 'devices.derivedCounters', width: 160, cell: (r) => <DerivedNames names={r.derivedCounters} /> },
    copyCount: { header: 'devices.copyCount', width: 100, cell: (r) => count(r.copyCount) },
    scanCount: { header: 'devices.scanCount', width: 100, cell: (r) => count(r.scanCount) },
    modelVendorCode: { header: 'devices.modelVendorCode', width: 120 },
    hasWalk: { header: 'devices.hasWalk', width: 110 },
    attention: { header: 'devices.attention', width: 120 },
    counterBackwards: { header: 'devices.counterBackwards', width: 140 },
    unknownModel: { header: 'devices.unknownModel', width: 130 },
    id: { header: 'devices.id', width: 80 },
  });
}
