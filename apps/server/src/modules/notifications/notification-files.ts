import { attachmentColumns, COUNTER_ATTACHMENT_COLUMNS, type CounterColumn } from '@pagewatch/contracts/notifications';
import { reportColumns, type ReportCode } from '@pagewatch/contracts/reports';
import { reportFileColumns, reportFileRow, XLSX_TYPE } from '../reports/index.ts';
import { xlsxBuffer } from '../../lib/xlsx.ts';
import { FILE_STYLES, fileColumns } from '../../lib/file-format.ts';
import { csv } from '../../lib/csv.ts';
import { translate, type Lang } from '../../i18n/messages.ts';
import type { OutboxAttachment } from '../../db/schema/notifications.ts';
import type * as repo from './dispatch.repository.ts';
import type { NotificationRow } from './notifications.repository.ts';

/** The files COUNTERS and REPORT notifications attach, per recipient: the dispatcher's and the test mail's. */

const COUNTER_VALUE: Record<CounterColumn, (r: repo.CounterRow & { inventoryNumber?: string | null }) => string | number | null> = {
  ip: (r) => r.ip,
  serialNumber: (r) => r.serialNumber,
  inventoryNumber: (r) => r.inventoryNumber ?? null,
  modelCode: (r) => r.modelCode,
  hostname: (r) => r.hostName,
  snmpLocation: (r) => r.snmpLocation,
  status: (r) => r.statusCode,
  location: (r) => r.locationName,
  printedPageCount: (r) => r.totalCount,
  printedBwPageCount: (r) => r.monoCount,
  printedColorPageCount: (r) => r.colorCount,
  printedPageA3Count: (r) => r.a3Count,
  printedPageA3BwCount: (r) => r.a3BwCount,
  printedPageA3ColorCount: (r) => r.a3ColorCount,
  printedPageA4Count: (r) => r.a4Count,
  printedPageA4BwCount: (r) => r.a4BwCount,
  printedPageA4ColorCount: (r) => r.a4ColorCount,
  copyPageCount: (r) => r.copyCount,
  scanPageCount: (r) => r.scanCount,
};

/** The counters columns that hold numbers (the rest are text). */
const COUNTER_NUMBERS = new Set<string>(COUNTER_ATTACHMENT_COLUMNS.filter((c) => /Count$/.test(c)));

/**
 * The counters file of a COUNTERS notification for one recipient: the devices of `scope`, in the
 * recipient's language (headers, separator and dates). The test mail attaches the same.
 */
export function countersFile(n: NotificationRow, rows: repo.CounterRow[], scope: Set<number>, lang: Lang, now: Date): OutboxAttachment {
  const columns = attachmentColumns(n.attachment).filter((c): c is CounterColumn => (COUNTER_ATTACHMENT_COLUMNS as readonly string[]).includes(c));
  const files = fileColumns(columns.map((key) => ({ key, type: COUNTER_NUMBERS.has(key) ? 'number' : 'string' })), lang);
  const mine = rows.filter((d) => scope.has(d.locationId));
  const content = csv(files, mine.map((d) => Object.fromEntries(columns.map((c) => [c, COUNTER_VALUE[c](d)]))), FILE_STYLES[lang]);
  return { filename: `counters-${now.toISOString().slice(0, 10)}.csv`, content, contentType: 'text/csv; charset=utf-8' };
}

/** What a REPORT notification's report covers: the time since its last run (a day for the first), its filters. */
export const reportFilter = (n: NotificationRow, area: Set<number> | null, now: Date) => ({
  area,
  printerType: n.dim01List,
  colorType: n.dim02List,
  paperFormat: n.dim03List,
  from: n.lastRunAt ? new Date(n.lastRunAt) : new Date(now.getTime() - 86_400_000),
  to: now,
});

/**
 * A REPORT notification's file for one recipient: the rows of `scope`, as CSV or XLSX, in the
 * recipient's language (an XLSX's sheet is the report's name in it). The test mail attaches the same.
 */
export async function reportFile(n: NotificationRow, report: ReportCode, rows: Record<string, unknown>[], scope: Set<number>, lang: Lang, now: Date): Promise<OutboxAttachment> {
  const all = reportColumns(report);
  const asked = attachmentColumns(n.attachment).filter((c) => all.includes(c));
  const columns = asked.length ? asked : all;
  const base = `${report.toLowerCase().replace(/_/g, '-')}-${now.toISOString().slice(0, 10)}`;
  const files = reportFileColumns(report, columns, lang);
  const style = FILE_STYLES[lang];
  const shape = reportFileRow(report, lang);
  const mine = rows.filter((row) => scope.has(Number(row.locationId))).map(shape);
  return n.fileExtension === 'XLSX'
    ? { filename: `${base}.xlsx`, content: (await xlsxBuffer(translate(lang, `reports.type.${report}`), files, mine, style)).toString('base64'), contentType: XLSX_TYPE, encoding: 'base64' }
    : { filename: `${base}.csv`, content: csv(files, mine, style), contentType: 'text/csv; charset=utf-8' };
}
