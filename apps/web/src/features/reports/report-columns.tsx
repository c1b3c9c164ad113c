import { useTranslation } from 'react-i18next';
import type { List } from '@pagewatch/contracts/list';
import { REPORTS, type ReportCode } from '@pagewatch/contracts/reports';
import { DEVICE_STATUS_CODES, DEVICE_STATUS_DEFS } from '@pagewatch/contracts/device-events';
import { METER_NAMES, METER_PARTS, meterField } from '@pagewatch/contracts/meter-reads';
import { columnTitleKey } from '@pagewatch/contracts/messages';
import { LevelBar } from '../../components/consumables/level-bar.tsx';
import type { DeviceLookups } from '../../components/consumables/use-device-lookups.ts';
import { columnsFromList, type ColumnLook } from '../../components/data-grid/grid-columns.ts';
import type { GridColumn } from '../../components/data-grid/grid-types.ts';
import { formatNumber, formatDay } from '../../lib/format.ts';
import { CodeLabel } from '../../components/code-label.tsx';

/** A report's row as the grid holds it: the report's fields and the row's place in the answer. */
export type ReportRow = Record<string, unknown> & { rowNo: number };

const count = (field: string): ColumnLook<ReportRow> => ({
  header: columnTitleKey(field),
  width: 110,
  cell: (r) => (typeof r[field] === 'number' ? formatNumber(r[field] as number) : null),
});

const day = (field: string): ColumnLook<ReportRow> => ({
  header: columnTitleKey(field),
  width: 120,
  cell: (r) => (r[field] ? formatDay(r[field] as string) : null),
});
/** Each meter's columns in the meter-read report: counts and days. */
const meterLooks = Object.fromEntries(
  METER_NAMES.flatMap((m) => METER_PARTS.map((p) => meterField(m, p))).map((f) => [f, f.endsWith('Date') ? day(f) : { ...count(f), width: 150 }]),
);

/**
 * A report's grid columns: the registry's list says which fields there are, their types and
 * which show by default; this adds headers, widths and cells. The header of a column is its
 * attachment name's text (`columnTitleKey`), the same in the grid, the column chooser and the
 * header row of the report's files.
 */
export function reportGridColumns(code: ReportCode, lookups: DeviceLookups): GridColumn<ReportRow>[] {
  const list = REPORTS[code].list;
  const lookup = (kind: 'deviceType' | 'colorType' | 'paperFormat'): ColumnLook<ReportRow> => ({
    header: columnTitleKey(kind),
    width: 120,
    type: 'lookup',
    options: lookups.options[kind],
  });
  const looks: Record<string, ColumnLook<ReportRow>> = {
    location: { header: columnTitleKey('location'), width: 170 },
    modelCode: { header: columnTitleKey('modelCode'), width: 170 },
    serialNumber: { header: columnTitleKey('serialNumber'), width: 140 },
    inventoryNumber: { header: columnTitleKey('inventoryNumber'), width: 130 },
    ip: { header: columnTitleKey('ip'), width: 120 },
    hostname: { header: columnTitleKey('hostname'), width: 140 },
    deviceType: lookup('deviceType'),
    colorType: lookup('colorType'),
    paperFormat: lookup('paperFormat'),
    daysCount: count('daysCount'),
    daysSeen: count('daysSeen'),
    daysAvailable: count('daysAvailable'),
    availability: { header: columnTitleKey('availability'), width: 110, cell: (r) => `${formatNumber(r.availability as number)} %` },
    lastSeen: { header: columnTitleKey('lastSeen'), width: 175 },
    status: {
      header: columnTitleKey('status'),
      width: 120,
      type: 'lookup',
      options: DEVICE_STATUS_CODES.map((s) => ({ value: s, label: DEVICE_STATUS_DEFS[s].labelKey })),
    },
    ...Object.fromEntries(
      ['bwStart', 'bwEnd', 'bwDiff', 'colorStart', 'colorEnd', 'colorDiff', 'totalStart', 'totalEnd', 'totalDiff', 'a3Diff', 'a4Diff', 'copyDiff', 'scanDiff'].map((f) => [f, count(f)]),
    ),
    reason: { header: columnTitleKey('reason'), width: 170, cell: (r) => (r.reason ? <ResetReason reason={r.reason as string} /> : null) },
    partType: { header: columnTitleKey('partType'), width: 150, cell: (r) => <CodeLabel set="supplyType" code={r.partType as string | null} /> },
    partModelCode: { header: columnTitleKey('partModelCode'), width: 140 },
    partSerialNumber: { header: columnTitleKey('partSerialNumber'), width: 150 },
    replacementDate: { header: columnTitleKey('replacementDate'), width: 175 },
    level: { header: columnTitleKey('level'), width: 110, cell: (r) => (typeof r.level === 'number' ? <LevelBar level={r.level} compact /> : null) },
    installDate: day('installDate'),
    refreshDate: { header: columnTitleKey('refreshDate'), width: 175 },
    periodFrom: day('periodFrom'),
    periodTo: day('periodTo'),
    ...meterLooks,
    billedTotal: { header: columnTitleKey('billedTotal'), width: 200, cell: (r) => (r.billedTotal ? <BilledTotal code={r.billedTotal as string} /> : null) },
    otherTotal: { ...count('otherTotal'), width: 150 },
    dataQuality: { header: columnTitleKey('dataQuality'), width: 220, cell: (r) => (r.dataQuality ? <DataQuality flags={r.dataQuality as string} /> : null) },
  };
  return columnsFromList(list as List<string, ReportRow>, looks);
}


/** Which counters went backwards in the period (a reset: their difference counts forward steps only). */
function ResetReason({ reason }: { reason: string }) {
  const { t } = useTranslation();
  return <span title={t('reports.resetHint')}>{t('reports.reset', { counters: reason.split(',').map((c) => t(`reports.counter.${c}`)).join(', ') })}</span>;
}

/** Which total the device is billed on (issue 57), in words. */
function BilledTotal({ code }: { code: string }) {
  const { t } = useTranslation();
  return <span>{t(`meters.billed.${code}`)}</span>;
}

/** The period's data-quality flags of a meter read, in words. */
function DataQuality({ flags }: { flags: string }) {
  const { t } = useTranslation();
  return <span>{flags.split(',').map((f) => t(`meters.quality.${f}`)).join('; ')}</span>;
}
