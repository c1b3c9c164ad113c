import { describe, expect, it } from 'vitest';
import { notificationInputSchema } from '@pagewatch/contracts/notifications';
import { emptyValues, inputOf, switchType, validateNotification, weeklyWithoutDays } from './notification-form-values.ts';

describe('the notification form', () => {
  it('starts a new one with the spec\'s defaults per type', () => {
    const counters = emptyValues('COUNTERS');
    expect(counters).toMatchObject({ active: true, schedule: { id: 'DAILY', time: '10:00' } });
    expect(counters.attachment).toContain('printedPageCount');
    expect(emptyValues('STATUS_CHANGE')).toMatchObject({ active: true, subscriberIds: [], schedule: { id: 'DAILY', time: '10:00' } });
    expect(emptyValues('REPORT')).toMatchObject({ fileExtensionCode: 'CSV', attachment: [] });
  });

  it('checks the rules of section 5 and names the broken fields', () => {
    const v = emptyValues('MIN_CONSUMABLE_LEVEL');
    expect(validateNotification({ ...v, threshold: 101 })).toEqual({
      name: 'general.mandatory', subject: 'general.mandatory', body: 'general.mandatory', subscriberIds: 'general.mandatory', threshold: 'notification.badThreshold',
    });
    expect(validateNotification({ ...v, name: 'n', subject: 's', body: '<p>b</p>', active: false, threshold: 0 })).toEqual({});
    expect(weeklyWithoutDays({ ...v, schedule: { ...v.schedule, id: 'WEEKLY', days: [] } })).toBe(true);
    // A week without a day is the save's dialog (spec section 5), not a field error that would keep the dialog away.
    expect(validateNotification({ ...v, name: 'n', subject: 's', body: '<p>b</p>', active: false, threshold: 0, schedule: { ...v.schedule, id: 'WEEKLY', days: [] } })).toEqual({});
  });

  it('checks by the contract’s schema, so the form refuses what the server would', () => {
    const v = { ...emptyValues('COUNTERS'), name: 'n', subject: 's', body: '<p>b</p>', active: false };
    expect(validateNotification(v)).toEqual({});
    expect(validateNotification({ ...v, name: 'n'.repeat(251) })).toEqual({ name: 'general.maxLength' });
    expect(validateNotification({ ...v, attachment: ['nonsense'] })).toEqual({ attachment: 'general.badValue' });
    expect(validateNotification({ ...v, body: '<p>&nbsp;</p>' })).toEqual({ body: 'general.mandatory' });
    const t = { ...emptyValues('MIN_CONSUMABLE_LEVEL'), name: 'n', subject: 's', body: '<p>b</p>', active: false };
    expect(validateNotification({ ...t, threshold: '' })).toEqual({ threshold: 'notification.badThreshold' });
    expect(validateNotification({ ...t, schedule: { ...t.schedule, id: 'MONTHLY', lastDay: false, dayOfMonth: 31 } })).toEqual({ 'schedule.dayOfMonth': 'notification.badDayOfMonth' });
  });

  it('turns IMMEDIATELY into DAILY and drops foreign variables when the type changes', () => {
    const v = { ...emptyValues('MIN_CONSUMABLE_LEVEL'), body: '<p>{device.partLevel} {device.ip}</p>' };
    const s = switchType({ ...v, schedule: { ...v.schedule, id: 'IMMEDIATELY' } }, 'COUNTERS');
    expect(s.schedule.id).toBe('DAILY');
    expect(s.body).toBe('<p> </p>');
  });

  it('sends what the API accepts, the schedule in UTC', () => {
    const v = { ...emptyValues('STATUS_CHANGE'), name: 'n', subject: 's', body: '<p>b</p>', subscriberIds: ['3'], locationIds: ['7'], statuses: ['ERROR'] };
    const input = inputOf({ ...v, schedule: { ...v.schedule, id: 'WEEKLY', days: ['MON'], time: '01:30' } }, 180);
    expect(input).toMatchObject({ schedule: '0 30 22 ? * SUN *', subscribers: [{ id: 3 }], locations: [{ id: 7 }], statuses: ['ERROR'], threshold: null });
    expect(notificationInputSchema.safeParse(input).success).toBe(true);
  });
});
