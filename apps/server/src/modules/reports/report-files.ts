import { reportColumnTypes, type ReportCode } from '@pagewatch/contracts/reports';
import { meterTitle } from '@pagewatch/contracts/meter-reads';
import { SHARED_MESSAGES } from '@pagewatch/contracts/messages';
import { translate, type Lang } from '../../i18n/messages.ts';
import type { SheetColumn } from '../../lib/xlsx.ts';
import type { Row } from '../../lib/row-pages.ts';

/**
 * How a report's file is written, the same for a download and a scheduled e-mail: its header
 * row and its rows as the file shows them. The spec's reports head their columns with the
 * attachment names; the meter reads (issue 41) with the names dealers know, in the user's
 * language, each meter's with its numeric code (101, 102, 112…), and their data-quality flags
 * in words.
 */
export type ReportFile = { columns: string[]; headers: string[]; sheet: SheetColumn[]; row: (r: Row) => Row };

/** A meter-read column's header: "Total (101): first read", "Чёрно-белые: страниц". */
const meterHeader = (field: string, lang: Lang): string => meterTitle(SHARED_MESSAGES[lang].meters, field) ?? translate(lang, `meters.column.${field}`);

const qualityText = (codes: unknown, lang: Lang) =>
  typeof codes === 'string' && codes ? codes.split(',').map((c) => translate(lang, `meters.quality.${c}`)).join('; ') : null;

export function reportFile(code: ReportCode, columns: string[], lang: Lang): ReportFile {
  const types = new Map(reportColumnTypes(code).map((c) => [c.key, c]));
  const meters = code === 'METER_READS';
  const headers = meters ? columns.map((c) => meterHeader(c, lang)) : columns;
  const sheet = columns.map((key, i) => ({ key, header: headers[i], type: types.get(key)?.type ?? 'string', day: types.get(key)?.day ?? false }));
  const row = meters ? (r: Row) => ({ ...r, dataQuality: qualityText(r.dataQuality, lang) }) : (r: Row) => r;
  return { columns, headers, sheet, row };
}
