import { sql } from 'drizzle-orm';
import { REPORTS } from '@pagewatch/contracts/reports';
import { COUNT_CAP } from '@pagewatch/contracts/list';
import { listSql, tableFields } from '../../lib/list-query.ts';
import { consumables } from '../../db/schema/consumables.ts';
import { deviceFieldsSql } from '../devices/index.ts';

/**
 * The installed consumables report as a grid read page by page (issue 17): a fleet of 100,000
 * printers has over 300,000 supplies, too many rows for one answer and for the browser, so its
 * screen asks for a page at a time with the list protocol. The report's own filter (locations
 * with the locations below them, device kinds, seen since INSTALLED_SINCE) is the request's
 * base condition (ReportsService.installedPage); the caller's locations always bound it.
 */
export const installedConsumablesListSql = listSql(REPORTS.INSTALLED_CONSUMABLES.list, {
  from: sql`consumables c JOIN devices d ON d.id = c.device_id JOIN locations loc ON loc.id = c.location_id`,
  tiebreaker: [sql`c.device_id`, sql`c.supply_index`],
  keyLookup: ['int', 'int'],
  countLimit: COUNT_CAP,
  scope: sql`c.location_id`,
  sql: {
    ...deviceFieldsSql('d', ['serialNumber', 'inventoryNumber', 'ip', 'deviceType', 'colorType', 'paperFormat']),
    ...tableFields('c', consumables, ['modelCode', 'partModelCode', 'partSerialNumber']),
    hostname: deviceFieldsSql('d', ['hostName']).hostName,
    location: sql`loc.name`,
    partType: sql`coalesce(c.part_name, c.part_code)`,
    level: sql`c.level`,
    installDate: sql`(c.installed_at AT TIME ZONE 'UTC')::date`,
    refreshDate: sql`c.refreshed_at`,
  },
  extra: {
    id: { expr: sql`(c.device_id || '-' || c.supply_index)`, type: 'string', filter: false, sort: false },
    // Not a column of the grid, but of the row (the report's files and API clients have it).
    locationId: { expr: sql`c.location_id`, type: 'number', filter: false, sort: false },
  },
});
