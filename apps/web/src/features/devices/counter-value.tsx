import { useTranslation } from 'react-i18next';
import { DERIVED_COUNTER_COLUMNS } from '@pagewatch/contracts/devices';
import { formatNumber } from '../../lib/format.ts';

type CounterColumn = (typeof DERIVED_COUNTER_COLUMNS)[keyof typeof DERIVED_COUNTER_COLUMNS];

/** Whether a device's counter column holds a value the agent derived rather than read. */
export function isDerived(derivedCounters: string, column: string): boolean {
  const names = derivedCounters ? derivedCounters.split(',') : [];
  return names.some((n) => DERIVED_COUNTER_COLUMNS[n as keyof typeof DERIVED_COUNTER_COLUMNS] === (column as CounterColumn));
}

/**
 * A page counter: its value, nothing when the device does not report it (unknown is not zero),
 * and a mark on a value derived from the others (colour as total − black, A4 as total − A3).
 */
export function CounterValue({ value, derived }: { value: number | null; derived: boolean }) {
  const { t } = useTranslation();
  if (value === null) return null;
  if (!derived) return <>{formatNumber(value)}</>;
  return (
    <span data-derived="true" data-hint={t('devices.derivedHint')}>
      {formatNumber(value)}
      <sup aria-label={t('devices.derived')}>*</sup>
    </span>
  );
}

/** The derived counters of a device by their names ("Colour pages, A4"). */
export function DerivedNames({ names }: { names: string }) {
  const { t } = useTranslation();
  if (!names) return null;
  return <>{names.split(',').map((n) => t(`devices.${DERIVED_COUNTER_COLUMNS[n as keyof typeof DERIVED_COUNTER_COLUMNS] ?? n}`)).join(', ')}</>;
}
