import { describe, expect, it } from 'vitest';
import {
  bodyText,
  cronToSchedule,
  DEFAULT_SCHEDULE,
  SCHEDULE_PATTERN,
  scheduleToCron,
  stripUnknownVariables,
  type ScheduleForm,
} from './notifications.ts';

const form = (over: Partial<ScheduleForm>): ScheduleForm => ({ ...DEFAULT_SCHEDULE, ...over });

describe('schedule strings', () => {
  it('writes the spec\'s seconds-first strings in UTC', () => {
    expect(scheduleToCron(form({ time: '10:00' }), 0)).toBe('0 0 10 ? * * *');
    // Moscow is UTC+3: 10:00 there is 07:00 UTC.
    expect(scheduleToCron(form({ time: '10:30' }), 180)).toBe('0 30 7 ? * * *');
    expect(scheduleToCron(form({ id: 'WEEKLY', days: ['MON', 'FRI'], time: '09:15' }), 0)).toBe('0 15 9 ? * MON,FRI *');
    expect(scheduleToCron(form({ id: 'MONTHLY', dayOfMonth: 15 }), 0)).toBe('0 0 10 15 * ? *');
    expect(scheduleToCron(form({ id: 'MONTHLY', lastDay: true }), 0)).toBe('0 0 10 L * ? *');
    expect(scheduleToCron(form({ id: 'IMMEDIATELY' }), 0)).toBeNull();
  });

  it('moves the days when the time crosses midnight in UTC', () => {
    // 01:00 on Monday in UTC+3 is 22:00 on Sunday in UTC.
    expect(scheduleToCron(form({ id: 'WEEKLY', days: ['MON', 'WED'], time: '01:00' }), 180)).toBe('0 0 22 ? * TUE,SUN *');
    // 23:00 on the 28th in UTC-5 is 04:00 on the 29th in UTC; the 1st at 01:00 in UTC+3 is the last day before.
    expect(scheduleToCron(form({ id: 'MONTHLY', dayOfMonth: 28, time: '23:00' }), -300)).toBe('0 0 4 29 * ? *');
    expect(scheduleToCron(form({ id: 'MONTHLY', dayOfMonth: 1, time: '01:00' }), 180)).toBe('0 0 22 L * ? *');
  });

  it('reads back what it wrote, in any time zone', () => {
    const forms = [
      form({ time: '00:05' }),
      form({ id: 'WEEKLY', days: ['MON', 'SUN'], time: '01:00' }),
      form({ id: 'WEEKLY', days: ['SAT'], time: '23:45' }),
      form({ id: 'MONTHLY', dayOfMonth: 1, time: '01:00' }),
      form({ id: 'MONTHLY', dayOfMonth: 28, time: '23:00' }),
      form({ id: 'MONTHLY', lastDay: true, time: '12:00' }),
    ];
    for (const offset of [0, 180, -300, 330, -720]) {
      for (const f of forms) {
        const cron = scheduleToCron(f, offset)!;
        expect(cron, `${JSON.stringify(f)} at ${offset}`).toMatch(SCHEDULE_PATTERN);
        const back = cronToSchedule(cron, offset);
        expect(back.id).toBe(f.id);
        expect(back.time).toBe(f.time);
        if (f.id === 'WEEKLY') expect(back.days).toEqual(f.days);
        if (f.id === 'MONTHLY' && !f.lastDay) expect(back.dayOfMonth === f.dayOfMonth || (f.dayOfMonth === 1 && back.lastDay === false)).toBe(true);
      }
    }
  });

  it('refuses shapes the spec does not have', () => {
    for (const bad of ['* * * * * *', '0 0 24 ? * * *', '0 60 1 ? * * *', '0 0 10 ? * MON,XYZ *', '0 0 10 32 * ? *', '0 0 10 ? * * * ; DROP']) {
      expect(SCHEDULE_PATTERN.test(bad), bad).toBe(false);
    }
  });
});

describe('body variables', () => {
  it('strips the variables the type does not know and keeps the others', () => {
    expect(stripUnknownVariables('<p>{device.ip} {device.partLevel} {device.oldIp}</p>', 'IP_CHANGE')).toBe('<p>{device.ip}  {device.oldIp}</p>');
    expect(stripUnknownVariables('{device.partLevel}', 'MIN_CONSUMABLE_LEVEL')).toBe('{device.partLevel}');
    expect(stripUnknownVariables('{device.ip}', 'COUNTERS')).toBe('');
  });
});

describe('a notification body', () => {
  it('is empty when it shows nothing: tags, non-breaking spaces and spaces only', () => {
    expect(bodyText('<p>&nbsp;</p>')).toBe('');
    expect(bodyText('<p> a&nbsp;b </p>')).toBe('a b');
  });
});
