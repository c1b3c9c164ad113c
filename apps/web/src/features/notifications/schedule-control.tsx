import '@mantine/dates/styles.css';
import { Button, Checkbox, Group, NumberInput, Select, Stack } from '@mantine/core';
import { TimeInput } from '@mantine/dates';
import { useTranslation } from 'react-i18next';
import { SCHEDULE_KINDS, WEEK_DAYS, type ScheduleForm, type ScheduleKind, type WeekDay } from '@pagewatch/contracts/notifications';

/**
 * The schedule (spec sections 3 and 4): a frequency; day buttons for WEEKLY (a new one starts
 * on Monday); a day of the month (1 to 28) or the last day for MONTHLY; the time, hidden for
 * IMMEDIATELY, which some types do not offer.
 */
export function ScheduleControl(p: { value: ScheduleForm; onChange: (v: ScheduleForm) => void; immediate: boolean; disabled: boolean; dayError?: string }) {
  const { t } = useTranslation();
  const v = p.value;
  const kinds = SCHEDULE_KINDS.filter((k) => p.immediate || k !== 'IMMEDIATELY');
  const set = (change: Partial<ScheduleForm>) => p.onChange({ ...v, ...change });
  const toggleDay = (d: WeekDay) => set({ days: v.days.includes(d) ? v.days.filter((x) => x !== d) : WEEK_DAYS.filter((x) => x === d || v.days.includes(x)) });

  return (
    <Stack gap="xs" data-testid="schedule">
      <Group gap="sm" align="flex-end">
        <Select
          label={t('notification.schedule')}
          w={220}
          allowDeselect={false}
          disabled={p.disabled}
          data={kinds.map((k) => ({ value: k, label: t(`notification.scheduleKind.${k}`) }))}
          value={v.id}
          onChange={(k) => k && set({ id: k as ScheduleKind, days: k === 'WEEKLY' && v.days.length === 0 ? ['MON'] : v.days })}
          data-testid="schedule-kind"
        />
        {v.id !== 'IMMEDIATELY' && (
          <TimeInput label={t('notification.time')} w={120} disabled={p.disabled} value={v.time} onChange={(e) => e.currentTarget.value && set({ time: e.currentTarget.value })} data-testid="schedule-time" />
        )}
      </Group>
      {v.id === 'WEEKLY' && (
        <Button.Group data-testid="schedule-days">
          {WEEK_DAYS.map((d) => (
            <Button key={d} size="xs" disabled={p.disabled} variant={v.days.includes(d) ? 'filled' : 'default'} aria-pressed={v.days.includes(d)} onClick={() => toggleDay(d)}>
              {t(`notification.day.${d}`)}
            </Button>
          ))}
        </Button.Group>
      )}
      {v.id === 'MONTHLY' && (
        <Group gap="sm" align="flex-end">
          <NumberInput
            label={t('notification.dayOfMonth')}
            w={140}
            min={1}
            max={28}
            allowDecimal={false}
            clampBehavior="strict"
            disabled={p.disabled || v.lastDay}
            value={v.dayOfMonth}
            error={p.dayError}
            onChange={(n) => set({ dayOfMonth: typeof n === 'number' ? n : Number(n) })}
            data-testid="schedule-day"
          />
          <Checkbox label={t('notification.lastDay')} mb={8} disabled={p.disabled} checked={v.lastDay} onChange={(e) => set({ lastDay: e.currentTarget.checked })} />
        </Group>
      )}
    </Stack>
  );
}
