import '@mantine/charts/styles.css';
import { BarChart, type BarChartSeries } from '@mantine/charts';
import { formatNumber } from '../../lib/format.ts';

/** Home's bars of pages per location, this month against last (a chunk of its own with the chart library). */
export function HomePagesChart({ data, series }: { data: Record<string, string | number>[]; series: BarChartSeries[] }) {
  return (
    <BarChart
      h={240}
      data={data}
      dataKey="location"
      series={series}
      valueFormatter={formatNumber}
      withLegend
      xAxisProps={{ interval: 0, angle: data.length > 5 ? -20 : 0, textAnchor: data.length > 5 ? 'end' : 'middle', height: data.length > 5 ? 70 : 30 }}
    />
  );
}
