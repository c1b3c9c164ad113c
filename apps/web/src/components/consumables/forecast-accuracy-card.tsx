import { Card, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ACCURACY_HORIZONS, useForecastAccuracy } from './use-forecast-accuracy.ts';
import { codeLabel } from '../../lib/code-labels.ts';

/**
 * How far the forecasts were off (issue 45): the mean absolute error in days of the forecasts
 * made 7, 14 and 30 days before the replacements of the last 90 days, overall and per part type.
 */
export function ForecastAccuracyCard() {
  const { t } = useTranslation();
  const { rows } = useForecastAccuracy();
  const types = [null, ...new Set(rows.filter((r) => r.partCode !== null).map((r) => r.partCode))];
  const cell = (partCode: string | null, h: number) => {
    const r = rows.find((x) => x.partCode === partCode && x.horizon === h);
    return r ? t('devices.accuracy.cell', { mae: r.mae, count: r.count }) : '—';
  };
  return (
    <Card withBorder radius="md" padding="sm" data-testid="forecast-accuracy">
      <Title order={3} size="h5" mb={4}>
        {t('devices.accuracy.title')}
      </Title>
      <Text size="xs" c="dimmed" mb="xs">
        {t('devices.accuracy.hint')}
      </Text>
      {rows.length ? (
        <Table verticalSpacing={2} fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('devices.partCode')}</Table.Th>
              {ACCURACY_HORIZONS.map((h) => (
                <Table.Th key={h}>{t('devices.accuracy.horizon', { days: h })}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {types.map((p) => (
              <Table.Tr key={p ?? ''} data-part={p ?? 'all'}>
                <Table.Td fw={p === null ? 600 : undefined}>{p === null ? t('devices.accuracy.overall') : codeLabel(t, 'supplyType', p)}</Table.Td>
                {ACCURACY_HORIZONS.map((h) => (
                  <Table.Td key={h}>{cell(p, h)}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text size="sm" c="dimmed">
          {t('devices.accuracy.none')}
        </Text>
      )}
    </Card>
  );
}
