import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ForecastReason } from '@pagewatch/contracts/consumables';
import { formatNumber } from '../../lib/format.ts';

/** Days a supply has left, red within a week and orange within two; without a forecast, its reason, dimmed. */
export function ForecastDays({ daysLeft, pagesLeft, reason }: { daysLeft: number | null; pagesLeft: number | null; reason: ForecastReason | null }) {
  const { t } = useTranslation();
  if (daysLeft === null) {
    const label = reason ? t(`devices.forecast.reason.${reason}`) : pagesLeft !== null ? t('devices.forecast.notPrinting') : '';
    return <Text size="xs" c="dimmed" data-forecast-reason={reason ?? ''}>{label}</Text>;
  }
  const days = Math.floor(daysLeft);
  const color = days < 7 ? 'red' : days < 14 ? 'orange' : undefined;
  return (
    <Text size="xs" c={color} fw={color ? 600 : undefined} data-days-left={days} data-hint={t('devices.forecast.pagesLeft', { pages: formatNumber(pagesLeft ?? 0) })}>
      {t('devices.forecast.days', { days })}
    </Text>
  );
}
