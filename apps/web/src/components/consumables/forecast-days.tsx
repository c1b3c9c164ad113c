import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { COARSE_STEP, type ForecastReason } from '@pagewatch/contracts/consumables';
import { formatNumber } from '../../lib/format.ts';
import { useForecastAccuracy } from './use-forecast-accuracy.ts';

/**
 * Days a supply has left, red within a week and orange within two, with the error such forecasts
 * of its part type have had (issue 45); without a forecast, its reason, dimmed.
 */
export function ForecastDays(props: { daysLeft: number | null; pagesLeft: number | null; reason: ForecastReason | null; partCode?: string | null; level?: number | null; levelStep?: number | null }) {
  const { daysLeft, pagesLeft, reason, partCode } = props;
  const { t } = useTranslation();
  const accuracy = useForecastAccuracy();
  if (daysLeft === null) {
    const label = reason ? t(`devices.forecast.reason.${reason}`) : pagesLeft !== null ? t('devices.forecast.notPrinting') : '';
    return <Text size="xs" c="dimmed" data-forecast-reason={reason ?? ''}>{label}</Text>;
  }
  const days = Math.floor(daysLeft);
  const color = days < 7 ? 'red' : days < 14 ? 'orange' : undefined;
  const error = withStep(accuracy.expected(partCode, days), days, props.level ?? null, props.levelStep ?? null);
  return (
    <Text size="xs" c={color} fw={color ? 600 : undefined} data-days-left={days} data-hint={t('devices.forecast.pagesLeft', { pages: formatNumber(pagesLeft ?? 0) })}>
      {t('devices.forecast.days', { days })}
      {error !== null ? <span data-expected-error={error}>{` ${t('devices.forecast.expectedError', { days: error })}`}</span> : null}
    </Text>
  );
}

/**
 * A coarse level (steps of COARSE_STEP points or more) cannot place the day finer than the days
 * one step lasts: the expected error grows by them (issue 45, honest levels).
 */
export function withStep(error: number | null, daysLeft: number, level: number | null, step: number | null): number | null {
  if (!step || step < COARSE_STEP || !level) return error;
  const stepDays = Math.round((daysLeft * step) / level);
  return Math.round(((error ?? 0) + stepDays) * 10) / 10;
}

/** Whether a supply's level is coarse: only "some remaining", or steps of COARSE_STEP points or more. */
export const isCoarse = (s: { level: number | null; levelState: string | null; levelStep: number | null }) =>
  (s.level === null && s.levelState === 'SOME_REMAINING') || (s.levelStep ?? 0) >= COARSE_STEP;

/** The mark of a coarse level beside its bar. */
export function CoarseMark() {
  const { t } = useTranslation();
  return (
    <Text span size="xs" c="dimmed" title={t('devices.coarseHint')} data-testid="coarse-level">
      {t('devices.coarse')}
    </Text>
  );
}
