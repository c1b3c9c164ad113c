import type { FileHeaders, ReportCode } from '@pagewatch/contracts/reports';
import { translate, type Lang } from '../../i18n/messages.ts';
import type { Row } from '../../lib/row-pages.ts';

const qualityText = (codes: unknown, lang: Lang) =>
  typeof codes === 'string' && codes ? codes.split(',').map((c) => translate(lang, `meters.quality.${c}`)).join('; ') : null;

/**
 * A report's row as its file shows it, the same for a download and a scheduled e-mail: the
 * meter reads' data-quality flags (issue 41) and the total billed on (issue 57) in words of `lang`, or as their codes in a file for
 * programs (`headers=codes`); the other reports' rows as they are. The headers, separator and
 * dates are the file's columns' and style's (reportFileColumns, lib/file-format.ts).
 */
export function reportFileRow(code: ReportCode, lang: Lang, headers: FileHeaders = 'titles'): (r: Row) => Row {
  if (code !== 'METER_READS' || headers === 'codes') return (r) => r;
  return (r) => ({ ...r, billedTotal: typeof r.billedTotal === 'string' ? translate(lang, `meters.billed.${r.billedTotal}`) : null, dataQuality: qualityText(r.dataQuality, lang) });
}
