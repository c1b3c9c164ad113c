import { useQuery } from '@tanstack/react-query';
import type { ReportType } from '@pagewatch/contracts/reports';
import { api } from './api.ts';
import { sharedKeys } from './query-keys.ts';

/** The report types the server has, named in the caller's language (the reports screens, REPORT notifications). */
export const useReportTypes = (enabled = true) =>
  useQuery({ queryKey: sharedKeys.reportTypes, queryFn: () => api<ReportType[]>('/reports'), enabled, staleTime: Infinity });
