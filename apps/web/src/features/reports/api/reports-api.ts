import type { ReportCode } from '@pagewatch/contracts/reports';

/** The reports feature's query keys: a report's rows and its chart, per code and request. */
export const reportKeys = {
  rows: (code: ReportCode, query: string | null) => ['report', code, query] as const,
  chart: (code: ReportCode, query: string) => ['report-chart', code, query] as const,
};
