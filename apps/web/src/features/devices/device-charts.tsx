import '@mantine/charts/styles.css';
import { useMemo, useState } from 'react';
import { BarChart, LineChart } from '@mantine/charts';
import { Center, Group, Loader, Paper, SegmentedControl, SimpleGrid, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { DmDevicePartDayRow } from '@pagewatch/contracts/device-history';
import { errorMessage } from '../../lib/errors.ts';
import { deviceKeys, fetchDeviceDays, fetchDevicePartDays } from './api/devices-api.ts';

const PERIODS = [30, 90, 365] as const;
const COLORANT_CHART: Record<string, string> = { black: 'dark.6', cyan: 'cyan.6', magenta: 'pink.6', yellow: 'yellow.5' };
const OTHER_COLORS = ['grape.6', 'teal.6', 'orange.6', 'indigo.6', 'lime.6'];

/**
 * One series per supply, labelled with the supply's name as the device reports it (its part
 * code and index when it no longer has one) and coloured by its colorant.
 */
function supplySeries(rows: DmDevicePartDayRow[], names: ReadonlyMap<number, string>) {
  const keys = new Map<number, { name: string; label: string; color: string }>();
  let other = 0;
  for (const r of rows) {
    if (keys.has(r.supplyIndex)) continue;
    const c = r.colorant?.toLowerCase() ?? '';
    const label = names.get(r.supplyIndex) || `${r.partCode} ${r.supplyIndex}`;
    keys.set(r.supplyIndex, { name: `s${r.supplyIndex}`, label, color: COLORANT_CHART[c] ?? OTHER_COLORS[other++ % OTHER_COLORS.length] });
  }
  const byDate = new Map<string, Record<string, string | number | null>>();
  for (const r of rows) {
    const point = byDate.get(r.factDate) ?? { date: dayjs(r.factDate).format('DD.MM') };
    point[keys.get(r.supplyIndex)!.name] = r.level;
    byDate.set(r.factDate, point);
  }
  return { data: [...byDate.values()], series: [...keys.values()] };
}

/** Page counters and supply levels over a chosen period, from the daily history. */
export function DeviceCharts({ deviceId, supplies: current }: { deviceId: number; supplies: readonly { supplyIndex: number; partName: string }[] }) {
  const { t } = useTranslation();
  const [days, setDays] = useState<(typeof PERIODS)[number]>(90);
  const from = dayjs().subtract(days, 'day').format('YYYY-MM-DD');
  const counters = useQuery({ queryKey: deviceKeys.days(deviceId, from), queryFn: () => fetchDeviceDays(deviceId, from) });
  const supplies = useQuery({ queryKey: deviceKeys.partDays(deviceId, from), queryFn: () => fetchDevicePartDays(deviceId, from) });

  const pages = useMemo(
    () => (counters.data ?? []).map((r) => ({ date: dayjs(r.factDate).format('DD.MM'), total: r.totalCount, monoPages: r.dayMono ?? 0, colorPages: r.dayColor ?? 0, day: r.dayTotal ?? 0 })),
    [counters.data],
  );
  const hasColor = pages.some((p) => p.colorPages > 0);
  const levels = useMemo(
    () => supplySeries(supplies.data ?? [], new Map(current.map((s) => [s.supplyIndex, s.partName]))),
    [supplies.data, current],
  );

  const body = (q: { isPending: boolean; error: Error | null }, empty: boolean, chart: React.ReactNode) =>
    q.isPending ? (
      <Center h={240}>
        <Loader size="sm" />
      </Center>
    ) : q.error ? (
      <Text c="red" size="sm">{errorMessage(q.error)}</Text>
    ) : empty ? (
      <Text c="dimmed" size="sm">{t('devices.noHistory')}</Text>
    ) : (
      chart
    );

  return (
    <Paper withBorder p="md" data-testid="device-charts">
      <Group justify="space-between" mb="sm">
        <Title order={4} size="h5">
          {t('devices.history')}
        </Title>
        <SegmentedControl
          size="xs"
          value={String(days)}
          onChange={(v) => setDays(Number(v) as (typeof PERIODS)[number])}
          data={PERIODS.map((p) => ({ value: String(p), label: t('devices.periodDays', { count: p }) }))}
        />
      </Group>
      <SimpleGrid cols={{ base: 1, lg: 3 }} spacing="lg">
        <div data-testid="chart-pages">
          <Text size="sm" fw={500} mb={4}>{t('devices.chartPagesPerDay')}</Text>
          {body(counters, !pages.length, (
            <BarChart
              h={240}
              data={pages}
              dataKey="date"
              type="stacked"
              series={hasColor ? [{ name: 'monoPages', label: t('devices.monoCount'), color: 'gray.6' }, { name: 'colorPages', label: t('devices.colorCount'), color: 'violet.5' }] : [{ name: 'day', label: t('devices.pages'), color: 'blue.6' }]}
              withLegend
              tickLine="y"
            />
          ))}
        </div>
        <div data-testid="chart-counters">
          <Text size="sm" fw={500} mb={4}>{t('devices.chartCounter')}</Text>
          {body(counters, !pages.length, (
            <LineChart h={240} data={pages} dataKey="date" series={[{ name: 'total', label: t('devices.totalCount'), color: 'blue.6' }]} withDots={false} curveType="linear" withLegend tickLine="y" yAxisProps={{ domain: ['dataMin', 'dataMax'], width: 70 }} />
          ))}
        </div>
        <div data-testid="chart-supplies">
          <Text size="sm" fw={500} mb={4}>{t('devices.chartSupplies')}</Text>
          {body(supplies, !levels.data.length, (
            <LineChart h={240} data={levels.data} dataKey="date" series={levels.series} withDots={false} curveType="linear" withLegend connectNulls tickLine="y" yAxisProps={{ domain: [0, 100] }} unit="%" />
          ))}
        </div>
      </SimpleGrid>
    </Paper>
  );
}
