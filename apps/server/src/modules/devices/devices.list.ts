import { sql, type SQL } from 'drizzle-orm';
import { DEVICE_FIELDS, deviceColumnOf, devicesList, PAGE_COUNTERS, type DeviceField, type DeviceFieldDef } from '@pagewatch/contracts/devices';
import { dmDeviceDaysActualList, dmDeviceDaysList, dmDeviceDaysVList, dmDeviceHistoryList, dmDevicePartDaysList, dmDeviceUserDaysList } from '@pagewatch/contracts/device-history';
import { COUNT_CAP, type List } from '@pagewatch/contracts/list';
import { ATTENTION_ERRORS } from '@pagewatch/contracts/device-events';
import { listSql, tableFields, type ListDef } from '../../lib/list-query.ts';
import { deviceIpHistory, dmDeviceDays, dmDevicePartDays } from '../../db/schema/devices.ts';
import { dmDeviceUserDays } from '../../db/schema/device-activity.ts';
import { METER_COLUMN, type CorrectedMeter } from '../../db/schema/meter-corrections.ts';

/**
 * The devices domain's lists: fields, filters and sorts from the shared specs in contracts, SQL
 * here, with the column each list's scope applies to. Joins
 * that a count does not need are LEFT joins on a unique key, so PostgreSQL drops them there.
 * Lists whose rows are found by their key through an index say so (`keyLookup`, with the types of
 * the key's columns); the newest days and the IP history compute their rows and do not.
 */

/** Counts are exact up to the cap and shown as "10,000+" above (a fleet of 100,000 devices would otherwise count every matching row for each page). */
export const COUNT_LIMIT = COUNT_CAP;

const attentionList = sql.raw(`ARRAY[${ATTENTION_ERRORS.map((e) => `'${e}'`).join(', ')}]`);

/** A device that needs a person now (ATTENTION_ERRORS); the devices grid and home share it. */
export function attentionSql(alias: string) {
  const a = sql.raw(alias);
  return sql`(${a}.status_code = 'ERROR' OR ${a}.error_bits ?| ${attentionList})`;
}

/**
 * A counter of the device (`d`) as the reports bill it (issue 54): the count as read plus the
 * meter corrections in force today (a counter reset carries the old board's count over), so
 * that the grid, the card and the meter reads agree.
 */
export const correctedCounterSql = (meter: CorrectedMeter): SQL =>
  sql`(d.${sql.raw(METER_COLUMN[meter])} + coalesce((SELECT sum(mc.offset_pages) FROM meter_corrections mc WHERE mc.device_id = d.id AND mc.meter = ${meter}
    AND mc.withdrawn_at IS NULL AND mc.from_date <= (now() AT TIME ZONE 'UTC')::date), 0))::bigint`;
/** The corrected counters by the device field that shows them (totalCount → total). */
const CORRECTED_FIELDS = new Map(
  (Object.keys(METER_COLUMN) as CorrectedMeter[]).map((m) => [PAGE_COUNTERS[m] as string, m]),
);

/**
 * The device fields computed from the device's columns (DEVICE_FIELDS `derived`), each once:
 * the grid reads them through the list, and so does the card (`deviceRowById`).
 */
export const DERIVED_DEVICE_SQL = {
  equivalentCount: sql`(${correctedCounterSql('total')} + ${correctedCounterSql('a3')})`,
  hasWalk: sql`(d.walk_refreshed_at IS NOT NULL)`,
  attention: attentionSql('d'),
  counterBackwards: sql`(d.counter_backwards_at IS NOT NULL)`,
  unknownModel: sql`(d.profile_id IS NULL)`,
} satisfies Record<DerivedOf<typeof DEVICE_FIELDS>, SQL>;

/** The names of a definition's derived fields: DERIVED_DEVICE_SQL must hold each. */
type DerivedOf<D extends Record<string, DeviceFieldDef>> = { [K in keyof D]: D[K]['source'] extends 'derived' ? K : never }[keyof D];

/**
 * The devices list's SQL from a set of device fields (DEVICE_FIELDS; the test that adds a column
 * passes a longer set): a column of `devices` is read under its name, a derived field from
 * DERIVED_DEVICE_SQL, the location's name from the joined locations.
 */
export function devicesListSqlOf<D extends Record<string, DeviceFieldDef>>(fields: D, list: List<keyof D & string>): ListDef {
  const expr = (name: string, def: DeviceFieldDef): SQL => {
    const corrected = CORRECTED_FIELDS.get(name);
    if (corrected) return correctedCounterSql(corrected);
    const column = deviceColumnOf(name, def);
    if (column !== null) return sql`d.${sql.identifier(column)}`;
    const derived = (DERIVED_DEVICE_SQL as Record<string, SQL>)[name];
    if (def.source === 'derived' && derived) return derived;
    throw new Error(`device field ${name}: no SQL for its source`);
  };
  const listed = list.columns.map((c) => c.field);
  return listSql(list, {
    lowered: ['modelCode'],
    countLimit: COUNT_LIMIT,
    scope: sql`d.location_id`,
    from: sql`devices d LEFT JOIN locations loc ON loc.id = d.location_id`,
    keysFrom: sql`devices d`,
    keyLookup: ['int'],
    tiebreaker: [sql`d.id`],
    sql: Object.fromEntries(listed.map((f) => [f, expr(f, fields[f])])) as Record<keyof D & string, SQL>,
    extra: {
      locationName: { expr: sql`loc.name`, type: 'string', filter: true, sort: true, joined: true },
    },
  });
}

export const devicesListSql = devicesListSqlOf(DEVICE_FIELDS, devicesList);

/**
 * Device fields of DEVICE_FIELDS read from `devices` under `alias`, for other lists that show a
 * supply's or a report row's device: each field's column is named once, in its definition.
 */
export function deviceFieldsSql<K extends DeviceField>(alias: string, names: readonly K[]): Record<K, SQL> {
  return Object.fromEntries(names.map((n) => {
    const column = deviceColumnOf(n, DEVICE_FIELDS[n]);
    if (column === null) throw new Error(`device field ${n} is not a column of devices`);
    return [n, sql`${sql.raw(alias)}.${sql.identifier(column)}`];
  })) as Record<K, SQL>;
}

const dayColumns = (a: string) => tableFields(a, dmDeviceDays, [
  'factDate', 'deviceId', 'totalCount', 'monoCount', 'colorCount', 'a3Count', 'a4Count', 'a3BwCount', 'a3ColorCount', 'a4BwCount', 'a4ColorCount',
  'copyCount', 'scanCount', 'statusCode', 'readings',
]);
const dayId = (a: string) => ({ id: { expr: sql.raw(`(${a}.device_id || '-' || ${a}.fact_date)`), type: 'string' as const, filter: false, sort: false } });

export const dmDeviceDaysListSql = listSql(dmDeviceDaysList, {
  scope: sql`dd.location_id`,
  from: sql`dm_device_days dd`,
  keyLookup: ['int', 'date'],
  tiebreaker: [sql`dd.device_id`, sql`dd.fact_date`],
  sql: dayColumns('dd'),
  extra: dayId('dd'),
});

/**
 * The day's pages: a counter minus the same counter of the device's previous day with a
 * reading (found through the (device_id, fact_date) index), or minus the day's first total.
 */
const prevDay = (col: string) =>
  sql.raw(`(SELECT p.${col} FROM dm_device_days p WHERE p.device_id = dd.device_id AND p.fact_date < dd.fact_date ORDER BY p.fact_date DESC LIMIT 1)`);
const dayDelta = (col: string, first: string | null) =>
  sql`GREATEST(0, ${sql.raw(`dd.${col}`)} - COALESCE(${prevDay(col)}, ${first ? sql.raw(`dd.${first}`) : sql.raw(`dd.${col}`)}))`;

const dayVColumns = {
  ...dayColumns('dd'),
  modelCode: sql`d.model_code`,
  serialNumber: sql`d.serial_number`,
  locationId: sql`dd.location_id`,
  dayTotal: dayDelta('total_count', 'total_start'),
  dayMono: dayDelta('mono_count', null),
  dayColor: dayDelta('color_count', null),
};

export const dmDeviceDaysVListSql = listSql(dmDeviceDaysVList, {
  lowered: ['modelCode'],
  scope: sql`dd.location_id`,
  from: sql`dm_device_days dd LEFT JOIN devices d ON d.id = dd.device_id`,
  keyLookup: ['int', 'date'],
  tiebreaker: [sql`dd.device_id`, sql`dd.fact_date`],
  sql: dayVColumns,
  extra: dayId('dd'),
});

export const dmDeviceDaysActualListSql = listSql(dmDeviceDaysActualList, {
  lowered: ['modelCode'],
  scope: sql`d.location_id`,
  from: sql`devices d JOIN LATERAL (SELECT * FROM dm_device_days x WHERE x.device_id = d.id ORDER BY x.fact_date DESC LIMIT 1) dd ON true`,
  tiebreaker: [sql`dd.device_id`, sql`dd.fact_date`],
  sql: dayVColumns,
  extra: dayId('dd'),
});

export const dmDevicePartDaysListSql = listSql(dmDevicePartDaysList, {
  scope: sql`d.location_id`,
  from: sql`dm_device_part_days pd JOIN devices d ON d.id = pd.device_id`,
  keyLookup: ['int', 'int', 'date'],
  tiebreaker: [sql`pd.device_id`, sql`pd.supply_index`, sql`pd.fact_date`],
  sql: tableFields('pd', dmDevicePartDays, [
    'factDate', 'deviceId', 'supplyIndex', 'partCode', 'colorant', 'partModelCode', 'partSerialNumber', 'level', 'minLevel', 'levelState', 'replaced',
  ]),
  extra: { id: { expr: sql`(pd.device_id || '-' || pd.supply_index || '-' || pd.fact_date)`, type: 'string', filter: false, sort: false } },
});

export const dmDeviceUserDaysListSql = listSql(dmDeviceUserDaysList, {
  scope: sql`ud.location_id`,
  from: sql`dm_device_user_days ud`,
  keyLookup: ['int'],
  tiebreaker: [sql`ud.id`],
  sql: tableFields('ud', dmDeviceUserDays, ['id', 'factDate', 'username', 'printedPageCount', 'colorPageCount', 'deviceId']),
});

export const dmDeviceHistoryListSql = listSql(dmDeviceHistoryList, {
  scope: sql`d.location_id`,
  from: sql`(SELECT h.*, lead(h.changed_at) OVER (PARTITION BY h.device_id ORDER BY h.changed_at, h.id) AS until FROM device_ip_history h) h JOIN devices d ON d.id = h.device_id`,
  tiebreaker: [sql`h.id`],
  sql: { ...tableFields('h', deviceIpHistory, ['id', 'deviceId', 'ip', 'oldIp']), dateFrom: sql`h.changed_at`, dateTo: sql`h.until` },
});

/** Every list of the domain with its SQL: each is served at its endpoint (devices.routes.ts). */
export const DEVICE_LISTS: [List, ListDef][] = [
  [devicesList, devicesListSql],
  [dmDeviceDaysList, dmDeviceDaysListSql],
  [dmDeviceDaysVList, dmDeviceDaysVListSql],
  [dmDeviceDaysActualList, dmDeviceDaysActualListSql],
  [dmDevicePartDaysList, dmDevicePartDaysListSql],
  [dmDeviceUserDaysList, dmDeviceUserDaysListSql],
  [dmDeviceHistoryList, dmDeviceHistoryListSql],
];
