import '@mantine/dates/styles.css';
import { DateInput, type DateInputProps } from '@mantine/dates';
import { useTranslation } from 'react-i18next';
import { isoDay } from '@pagewatch/contracts/licenses';
import i18n from '../../i18n/i18n.ts';

type DayInputProps = Omit<DateInputProps, 'value' | 'onChange' | 'defaultValue'> & { value?: string | null; onChange?: (day: string) => void };

/**
 * A day, typed or picked, shown as the console shows days (DD.MM.YYYY) and held as the API's
 * YYYY-MM-DD; '' when cleared. Typed, either form is understood.
 */
export function DayInput({ value, onChange, ...props }: DayInputProps) {
  const { t } = useTranslation();
  return (
    <DateInput
      valueFormat="DD.MM.YYYY"
      dateParser={(input) => isoDay(input.trim())}
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
