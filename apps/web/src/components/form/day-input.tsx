import '@mantine/dates/styles.css';
import { DateInput, type DateInputProps } from '@mantine/dates';
import { useTranslation } from 'react-i18next';
import { parseDay } from '../../lib/format.ts';

type DayInputProps = Omit<DateInputProps, 'value' | 'onChange' | 'defaultValue'> & { value?: string | null; onChange?: (day: string) => void };

/**
 * A day, typed or picked, shown as the console shows days (DD.MM.YYYY) and held as the API's
 * YYYY-MM-DD; '' when cleared. Typed, either form is understood.
 */
export function DayInput({ value, onChange, ...props }: DayInputProps) {
  const { t, i18n } = useTranslation();
  return (
    <DateInput
      valueFormat="DD.MM.YYYY"
      dateParser={parseDay}
      locale={i18n.language}
      firstDayOfWeek={1}
      placeholder={t('general.dayPlaceholder')}
      popoverProps={{ withinPortal: true }}
      {...props}
      value={value || null}
      onChange={(day) => onChange?.(day ?? '')}
    />
  );
}
