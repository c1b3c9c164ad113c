import { useQuery } from '@tanstack/react-query';
import type { ForecastAccuracy } from '@pagewatch/contracts/consumables';
import { api } from '../../lib/api.ts';
import { useHasGrant } from '../../lib/auth-context.tsx';
import { sharedKeys } from '../../lib/query-keys.ts';

/** The horizons the accuracy is measured at (days before a replacement), as the server gives them. */
export const ACCURACY_HORIZONS = [7, 14, 30] as const;

/** The horizon whose error a forecast of `daysLeft` days should expect: the nearest measured one. */
export const horizonFor = (daysLeft: number) => ACCURACY_HORIZONS.reduce((best, h) => (Math.abs(h - daysLeft) < Math.abs(best - daysLeft) ? h : best));

/**
 * The forecasts' accuracy in the caller's locations (issue 45), asked once for every forecast
 * shown; `expected(partCode, daysLeft)` is the error in days such a forecast has had (its part
 * type's at the nearest horizon, else every type's), null before any replacement was measured.
 */
export function useForecastAccuracy() {
  const allowed = useHasGrant('MNU_DEVICES.READ');
  const q = useQuery({ queryKey: sharedKeys.forecastAccuracy, queryFn: () => api<ForecastAccuracy[]>('/consumables/forecast-accuracy'), enabled: allowed, staleTime: 5 * 60_000 });
  const rows = q.data ?? [];
  const expected = (partCode: string | null | undefined, daysLeft: number): number | null => {
    const h = horizonFor(daysLeft);
    return (rows.find((r) => r.partCode === partCode && r.horizon === h) ?? rows.find((r) => r.partCode === null && r.horizon === h))?.mae ?? null;
  };
  return { rows, expected, loading: q.isPending && allowed, error: q.error };
}
