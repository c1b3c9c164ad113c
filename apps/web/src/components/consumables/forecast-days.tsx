import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ForecastReason } from '@pagewatch/contracts/consumables';
import { formatNumber } from '../../lib/format.ts';
import { useForecastAccuracy } from './use-forecast-accuracy.ts';

/**
 * Days a supply has left, red within a week and orange within two, with the error such forecasts
 * of its part type have had (issue 45); without a forecast, its reason, dimmed.
 */
export function ForecastDays({ daysLeft, pagesLeft, reason, partCode }: { daysLeft: number | null; pagesLeft: number | null; reason: ForecastReason | null; partCode?: string | null }) {
  const { t } = useTranslation();
  const accuracy = useForecastAccuracy();
  if (daysLeft === null) {
    const label = reason ? t(`devices.forecast.reason.${reason}`) : pagesLeft !== null ? t('devices.forecast.notPrinting') : '';
    return <Text size="xs" c="dimmed" data-forecast-reason={reason ?? ''}>{label}</Text>;
  }
  const days = Math.floor(daysLeft);
  const color = days < 7 ? 'red' : days < 14 ? 'orange' : undefined;
  const error = accuracy.expected(partCode, days);
  return (
    <Text size="xs" c={color} fw={color ? 600 : undefined} data-days-left={days} data-hint={t('devices.forecast.pagesLeft', { pages: formatNumber(pagesLeft ?? 0) })}>
      {t('devices.forecast.days', { days })}
      {error !== null ? <span data-expected-error={error}>{` ${t('devices.forecast.expectedError', { days: error })}`}</span> : null}
    </Text>
  );
}
