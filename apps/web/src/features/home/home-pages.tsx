import { Card, Group, SimpleGrid, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { Home } from '@pagewatch/contracts/home';
import { lazyScreen, ScreenFrame } from '../../components/layout/lazy-screen.tsx';
import { formatNumber } from '../../lib/format.ts';

/** The chart library is a third of home's bytes: it loads when there are pages to draw (issue 53). */
const HomePagesChart = lazyScreen(() => import('./home-pages-chart.tsx'), 'HomePagesChart');

type Pages = NonNullable<Home['devices']>['pages'];

/** "+12%" against last month; nothing when last month had no pages. */
function change(now: number, before: number): string {
  if (!before) return '';
  const pct = Math.round(((now - before) / before) * 100);
  return `${pct > 0 ? '+' : ''}${pct}%`;
}

function PagesFigure({ label, now, before, testId }: { label: string; now: number; before: number; testId: string }) {
  const { t } = useTranslation();
  return (
    <div data-testid={testId}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Group gap={6} align="baseline">
        <Text fw={700} size="xl">
          {formatNumber(now)}
        </Text>
        <Text size="sm" c="dimmed">
          {change(now, before)}
        </Text>
      </Group>
      <Text size="xs" c="dimmed">
        {t('home.lastMonthWas', { value: formatNumber(before) })}
      </Text>
    </div>
  );
}

/**
 * Pages printed this month so far against the same days of last month (issue 54: one day of
 * December against all of November said "−95 %"), black-and-white and colour, and per location
 * (the busiest first): what the reports bill, at a glance. The card says which days it compares.
 */
export function HomePages({ pages }: { pages: Pages }) {
  const { t } = useTranslation();
  const series = [
    { name: 'thisBw', label: t('home.thisMonthBw'), color: 'dark.5' },
    { name: 'thisColor', label: t('home.thisMonthColor'), color: 'grape.6' },
    { name: 'lastBw', label: t('home.lastMonthBw'), color: 'gray.4' },
    { name: 'lastColor', label: t('home.lastMonthColor'), color: 'grape.2' },
  ];
  const data = pages.byLocation.map((l) => ({
    location: l.locationName,
    thisBw: l.thisMonth.bw,
    thisColor: l.thisMonth.color,
    lastBw: l.lastMonth.bw,
    lastColor: l.lastMonth.color,
  }));
  return (
    <Card withBorder radius="md" padding="sm" data-testid="home-pages">
      <Title order={3} size="h5">
        {t('home.pagesTitle')}
      </Title>
      <Text size="xs" c="dimmed" mb="xs" data-testid="home-pages-span">
        {t('home.pagesSpan', Object.fromEntries(Object.entries(pages.span).map(([k, v]) => [k, dayjs(v).format('DD.MM.YYYY')])))}
      </Text>
      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm" mb="sm">
        <PagesFigure testId="home-pages-total" label={t('home.pagesTotal')} now={pages.thisMonth.total} before={pages.lastMonth.total} />
        <PagesFigure testId="home-pages-bw" label={t('home.pagesBw')} now={pages.thisMonth.bw} before={pages.lastMonth.bw} />
        <PagesFigure testId="home-pages-color" label={t('home.pagesColor')} now={pages.thisMonth.color} before={pages.lastMonth.color} />
      </SimpleGrid>
      {data.length ? (
        <ScreenFrame>
          <HomePagesChart data={data} series={series} />
        </ScreenFrame>
      ) : (
        <Text size="sm" c="dimmed">
          {t('home.pagesNone')}
        </Text>
      )}
    </Card>
  );
}
