import type { TFunction } from 'i18next';
import { COUNTER_RULES } from '@pagewatch/contracts/reading';
import { formatNumber } from '../../lib/format.ts';

/**
 * Where a counter or a supply's level came from, as the agent wrote it ("<OID> (<profile>:
 * <rule>)", or a rule of its own such as "derived: total − colour"), in the user's language:
 * the Printer-MIB, a vendor's record and its entry, a vendor's level code or rule. A text of
 * another shape (several sources summed) is shown as it came.
 */
export function sourceText(t: TFunction, source: string): string {
  const rule = Object.entries(COUNTER_RULES).find(([, text]) => text === source)?.[0];
  if (rule) return t(`devices.counterRule.${rule}`);
  const m = /^(\d+(?:\.\d+)+) \(([^:()]+): ([^()]+)\)$/.exec(source);
  if (!m) return source;
  const [oid, who, what] = [m[1]!, m[2]!, m[3]!];
  if (who === 'Printer-MIB') return t('devices.source.printerMib', { object: what, oid });
  const record = /^(.+), record ([0-9a-f]{2}) (.+)$/.exec(what);
  if (record) return t('devices.source.record', { profile: who, record: record[1], code: record[2], name: record[3], oid });
  const code = /^level code (-?\d+)$/.exec(what);
  if (code) return t('devices.source.levelCode', { profile: who, code: code[1], oid });
  return t('devices.source.vendor', { profile: who, rule: what, oid });
}

/**
 * Which total the device is billed on, with the other beside it: the maker's own total where the
 * device has one (the Printer-MIB's prtMarkerLifeCount then shown beside it), else
 * prtMarkerLifeCount. Null for a device that reported neither apart (an older agent).
 */
export function billedTotalText(t: TFunction, d: { vendorTotalCount: number | null; markerTotalCount: number | null }): string | null {
  if (d.vendorTotalCount !== null) {
    return d.markerTotalCount === null ? t('devices.billedTotal.vendorAlone') : t('devices.billedTotal.vendor', { other: formatNumber(d.markerTotalCount) });
  }
  return d.markerTotalCount === null ? null : t('devices.billedTotal.printerMib');
}
