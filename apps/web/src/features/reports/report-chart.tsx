import '@mantine/charts/styles.css';
import { useMemo } from 'react';
import { AreaChart, BarChart } from '@mantine/charts';
import { Alert, Center, Loader, Paper, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { AvailabilityDay, PagesByMonth, ReportCode } from '@pagewatch/contracts/reports';
import { api } from '../../lib/api.ts';
import { errorMessage } from '../../lib/errors.ts';
import { formatNumber } from '../../lib/format.ts';
import { reportKeys } from './api/reports-api.ts';

/** The reports that have a chart, and the call that feeds it. */
const CHARTS: Partial<Record<ReportCode, string>> = {
  DEVICE_AVAILABILITY: '/reports/device-availability/days',
  DEVICE_COUNTERS: '/reports/device-counters/months',
};

const MONTH_COLORS = ['blue.6', 'teal.6', 'grape.6', 'orange.6', 'indigo.6', 'lime.7', 'pink.6', 'cyan.7', 'yellow.7', 'red.6', 'violet.6', 'green.7'];
const TOP_LOCATIONS = 15;

/** Pages per location (the busiest first), one stacked part per month of the period. */
function pagesChartData(rows: PagesByMonth[], other: string) {
  const months = [...new Set(rows.map((r) => r.month))].sort();
  const byLocation = new Map<string, Record<string, number>>();
  for (const r of rows) {
    const point = byLocation.get(r.location) ?? {};
    point[r.month] = (point[r.month] ?? 0) + r.bw + r.color;
    byLocation.set(r.location, point);
  }
  const total = (p: Record<string, number>) => Object.values(p).reduce((a, b) => a + b, 0);
  const sorted = [...byLocation.entries()].sort((a, b) => total(b[1]) - total(a[1]));
  const shown = sorted.slice(0, TOP_LOCATIONS).map(([location, p]) => ({ location, ...p }));
  const rest = sorted.slice(TOP_LOCATIONS);
  if (rest.length) {
    const sum: Record<string, number> = {};
    for (const [, p] of rest) for (const [m, v] of Object.entries(p)) sum[m] = (sum[m] ?? 0) + v;
    shown.push({ location: other, ...sum });
  }
  return { data: shown, series: months.map((m, i) => ({ name: m, label: dayjs(`${m}-01`).format('MM.YYYY'), color: MONTH_COLORS[i % MONTH_COLORS.length] })) };
}

/** The report's picture: pages per location and month (counters), availability per day (availability). */
export function ReportChart({ code, query }: { code: ReportCode; query: string }) {
  const { t } = useTranslation();
  const path = CHARTS[code];
  const chart = useQuery({
    queryKey: reportKeys.chart(code, query),
    queryFn: ({ signal }) => api<AvailabilityDay[] | PagesByMonth[]>(path!, { query, signal }),
    enabled: !!path,
    meta: { silent: true },
  });
  const counters = useMemo(
    () => (code === 'DEVICE_COUNTERS' && chart.data ? pagesChartData(chart.data as PagesByMonth[], t('reports.chart.otherLocations')) : null),
    [code, chart.data, t],
  );
  const availability = useMemo(
    () =>
      code === 'DEVICE_AVAILABILITY' && chart.data
        ? (chart.data as AvailabilityDay[]).map((d) => ({
            day: dayjs(d.day).format('DD.MM'),
            available: d.devices ? Math.round((d.available * 1000) / d.devices) / 10 : 0,
            seen: d.devices ? Math.round((d.seen * 1000) / d.devices) / 10 : 0,
          }))
        : null,
    [code, chart.data],
  );
  if (!path) return null;
  return (
    <Paper withBorder p="md" data-testid="report-chart">
      <Text fw={600} size="sm" mb="sm">
        {t(`reports.chart.${code}`)}
      </Text>
      {chart.error ? (
        <Alert color="red" variant="light">
          {errorMessage(chart.error)}
        </Alert>
      ) : !chart.data ? (
        <Center h={220}>
          <Loader size="sm" />
        </Center>
      ) : counters ? (
        <BarChart
          h={260}
          data={counters.data}
          dataKey="location"
          type="stacked"
          maxBarWidth={72}
          series={counters.series}
          valueFormatter={formatNumber}
          withLegend
          xAxisProps={{ interval: 0, angle: counters.data.length > 5 ? -20 : 0, textAnchor: counters.data.length > 5 ? 'end' : 'middle', height: counters.data.length > 5 ? 70 : 30 }}
        />
      ) : availability ? (
        <AreaChart
          h={240}
          data={availability}
          dataKey="day"
          series={[
            { name: 'available', label: t('reports.chart.available'), color: 'teal.6' },
            { name: 'seen', label: t('reports.chart.seen'), color: 'blue.4' },
          ]}
          yAxisProps={{ domain: [0, 100] }}
          unit=" %"
          withLegend
          curveType="linear"
        />
      ) : null}
    </Paper>
  );
}
