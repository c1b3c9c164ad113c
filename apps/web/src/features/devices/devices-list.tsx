import { DEVICE_FLAGS, devicesList, TONERS, type DeviceFlag, type DeviceListRow, type TonerField } from '@pagewatch/contracts/devices';
import { DEVICE_STATUS_CODES, DEVICE_STATUS_DEFS } from '@pagewatch/contracts/device-events';
import { columnsFromList, type ColumnLook } from '../../components/data-grid/grid-columns.ts';
import type { GridColumn } from '../../components/data-grid/grid-types.ts';
import { FlagIcon } from './device-flags.tsx';
import { CounterValue, DerivedNames, isDerived } from './counter-value.tsx';
import { LevelBar } from '../../components/consumables/level-bar.tsx';
import type { DeviceLookups } from '../../components/consumables/use-device-lookups.ts';
import { formatNumber } from '../../lib/format.ts';

const count = (v: number | null) => (v === null ? '' : formatNumber(v));
/** A counter column: unknown stays empty, a derived value is marked. */
const counterLook = (field: 'monoCount' | 'colorCount' | 'a3Count' | 'a3BwCount' | 'a3ColorCount' | 'a4Count' | 'a4BwCount' | 'a4ColorCount', width = 110): ColumnLook<DeviceListRow> => ({
  width,
  cell: (r) => <CounterValue value={r[field]} derived={isDerived(r.derivedCounters, field)} />,
});
const toner = (field: TonerField): ColumnLook<DeviceListRow> => ({
  width: 110,
  cell: (r) => (r[field] === null ? null : <LevelBar level={r[field]} compact />),
});
const flag = (f: DeviceFlag): ColumnLook<DeviceListRow> => ({
  width: 96,
  cell: (r) => <FlagIcon flag={f} on={r[f]} />,
});

/** The devices grid's looks; fields, filters, sorts and headers come from the shared definition (DEVICE_FIELDS). */
export function devicesColumns(lookups: DeviceLookups): GridColumn<DeviceListRow>[] {
  const lookup = (kind: 'deviceType' | 'colorType' | 'paperFormat'): ColumnLook<DeviceListRow> => ({
    width: 130,
    type: 'lookup',
    options: lookups.options[kind],
    cell: (r) => lookups.label(kind, r[kind]),
  });
  return columnsFromList(devicesList, {
    modelCode: { width: 180 },
    serialNumber: { width: 150 },
    inventoryNumber: { width: 130 },
    snmpLocation: { width: 140 },
    hostName: { width: 140 },
    locationId: { width: 160, type: 'lookup', options: lookups.options.locationId, cell: (r) => r.locationName },
    ip: { width: 120 },
    deviceType: lookup('deviceType'),
    colorType: lookup('colorType'),
    paperFormat: lookup('paperFormat'),
    totalCount: { width: 110, cell: (r) => count(r.totalCount) },
    monoCount: counterLook('monoCount'),
    colorCount: counterLook('colorCount'),
    ...Object.fromEntries(TONERS.map((f) => [f, toner(f)])),
    ...Object.fromEntries(DEVICE_FLAGS.map((f) => [f, flag(f)])),
    managedFlag: { width: 110 },
    statusCode: {
      width: 120,
      type: 'lookup',
      options: DEVICE_STATUS_CODES.map((s) => ({ value: s, label: DEVICE_STATUS_DEFS[s].labelKey })),
    },
    refreshedAt: { width: 160 },
    createdAt: { width: 160 },
    macAddress: { width: 150 },
    firmware: { width: 140 },
    a3Count: counterLook('a3Count', 100),
    a3BwCount: counterLook('a3BwCount'),
    a3ColorCount: counterLook('a3ColorCount'),
    a4Count: counterLook('a4Count', 100),
    a4BwCount: counterLook('a4BwCount'),
    a4ColorCount: counterLook('a4ColorCount'),
    equivalentCount: { width: 130, cell: (r) => count(r.equivalentCount) },
    derivedCounters: { width: 160, cell: (r) => <DerivedNames names={r.derivedCounters} /> },
    copyCount: { width: 100, cell: (r) => count(r.copyCount) },
    scanCount: { width: 100, cell: (r) => count(r.scanCount) },
    modelVendorCode: { width: 120 },
    hasWalk: { width: 110 },
    attention: { width: 120 },
    counterBackwards: { width: 140 },
    unknownModel: { width: 130 },
    id: { width: 80 },
  });
}
