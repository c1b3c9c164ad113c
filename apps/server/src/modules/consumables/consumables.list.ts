import { sql } from 'drizzle-orm';
import { consumablesList, consumablesShortList } from '@pagewatch/contracts/consumables';
import type { List } from '@pagewatch/contracts/list';
import { listSql, tableFields, type ListDef } from '../../lib/list-query.ts';
import { COUNT_LIMIT, deviceFieldsSql } from '../devices/index.ts';
import { consumables } from '../../db/schema/consumables.ts';

/**
 * One row per supply of a device. The supply carries its device's
 * location and model (kept by triggers), so the usual filters and sorts use the supplies' own
 * indexes. The device join is LEFT (every supply has its device) so that a count that needs no
 * device column skips it.
 */
export const consumablesListSql = listSql(consumablesList, {
  objects: { device: { id: 'deviceId', serialNumber: 'serialNumber', inventoryNumber: 'inventoryNumber' } },
  countLimit: COUNT_LIMIT,
  scope: sql`s.location_id`,
  lowered: ['partName'],
  from: sql`consumables s LEFT JOIN devices d ON d.id = s.device_id LEFT JOIN locations loc ON loc.id = s.location_id`,
  keysFrom: sql`consumables s`,
  joined: ['hostName', 'ip', 'serialNumber', 'inventoryNumber', 'deviceType', 'colorType', 'paperFormat', 'locationName'],
  keyLookup: ['int', 'int'],
  tiebreaker: [sql`s.device_id`, sql`s.supply_index`],
  sql: {
    ...tableFields('s', consumables, ['colorant', 'partName', 'partModelCode', 'partSerialNumber', 'modelCode', 'locationId', 'partCode', 'levelState', 'deviceId',
      'pagesLeft', 'daysLeft', 'runsOutOn', 'forecastReason', 'levelStep']),
    level: sql`s.level`,
    ...deviceFieldsSql('d', ['hostName', 'ip', 'serialNumber', 'inventoryNumber', 'deviceType', 'colorType', 'paperFormat']),
    refreshDate: sql`s.refreshed_at`,
    locationName: sql`loc.name`,
    // The supply's open order (issue 45): at most one, found on supply_orders' unique partial index.
    orderState: sql`(SELECT o.state FROM supply_orders o WHERE o.device_id = s.device_id AND o.supply_index = s.supply_index AND o.state IN ('ORDERED', 'SHIPPED'))`,
  },
  extra: {
    id: { expr: sql`(s.device_id || '-' || s.supply_index)`, type: 'string', filter: false, sort: false },
    supplyIndex: { expr: sql`s.supply_index`, type: 'number', filter: true, sort: true },
  },
});

export const consumablesShortListSql = listSql(consumablesShortList, {
  lowered: ['partName'],
  scope: sql`d.location_id`,
  from: sql`consumables s JOIN devices d ON d.id = s.device_id`,
  keyLookup: ['int', 'int'],
  tiebreaker: [sql`s.device_id`, sql`s.supply_index`],
  sql: {
    ...tableFields('s', consumables, ['deviceId', 'supplyIndex', 'partCode', 'partName', 'colorant', 'partModelCode', 'levelState']),
    level: sql`s.level`,
  },
  extra: { id: { expr: sql`(s.device_id || '-' || s.supply_index)`, type: 'string', filter: false, sort: false } },
});

/** The consumables lists with their SQL, each served at its endpoint (consumables.routes.ts). */
export const CONSUMABLE_LISTS: [List, ListDef][] = [
  [consumablesList, consumablesListSql],
  [consumablesShortList, consumablesShortListSql],
];
