import type { TFunction } from 'i18next';
import { DEFAULT_RATED_PPM, type MeterFlag } from '@pagewatch/contracts/meter-flags';
import { formatNumber, formatDateTime } from '../../lib/format.ts';

/** A meter's name as the card's counters section labels it. */
const METER_LABEL: Record<string, string> = {
  total: 'totalCount', mono: 'monoCount', color: 'colorCount', a3: 'a3Count', a3Bw: 'a3BwCount', a3Color: 'a3ColorCount',
  a4: 'a4Count', a4Bw: 'a4BwCount', a4Color: 'a4ColorCount', copies: 'copyCount', scans: 'scanCount', fax: 'faxCount', duplex: 'duplexCount',
};

/** One implausible meter read in the user's language, as the card's data-quality note says it. */
export function meterFlagText(t: TFunction, f: MeterFlag): string {
  const n = (v: number | null) => (v === null ? '—' : formatNumber(v));
  const meter = (m: string) => (METER_LABEL[m] ? t(`devices.${METER_LABEL[m]}`) : m);
  const text = t(`devices.meterFlag.${f.kind}`, {
    date: formatDateTime(f.at), meter: meter(f.meter), from: n(f.previousValue), to: n(f.value),
    minutes: f.minutes ?? '—', limit: n(f.limit), ppm: DEFAULT_RATED_PPM, sum: n(f.monoPlusColor), total: n(f.value),
  });
  return f.others.length ? `${text} (${t('devices.meterFlag.others', { meters: f.others.map((o) => meter(o.meter)).join(', ') })})` : text;
}
