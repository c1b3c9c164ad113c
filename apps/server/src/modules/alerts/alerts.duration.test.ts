import { describe, expect, it } from 'vitest';
import { formatDuration } from './alerts.duration.ts';

const MIN = 60_000;

describe('how long an alert lasted, as a mail says it', () => {
  it('says the two largest units, in the reader\'s language', () => {
    expect(formatDuration((3 * 60 + 12) * MIN + 59_000, 'en')).toBe('3 h 12 min');
    expect(formatDuration((3 * 60 + 12) * MIN, 'ru')).toBe('3 ч 12 мин');
    expect(formatDuration((25 * 60 + 7) * MIN, 'en')).toBe('1 d 1 h');
    expect(formatDuration((2 * 24 * 60 + 5) * MIN, 'ru')).toBe('2 д');
    expect(formatDuration(2 * 60 * MIN, 'en')).toBe('2 h');
    expect(formatDuration(30_000, 'en')).toBe('0 min');
    expect(formatDuration(-5 * MIN, 'ru')).toBe('0 мин');
  });
});
