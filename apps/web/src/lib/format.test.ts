import { describe, expect, it } from 'vitest';
import { formatDateTime, formatDay, formatNumber, formatTime, parseDay } from './format.ts';

describe('the one date format (spec section 9: dd.MM.yyyy HH:mm:ss)', () => {
  const moment = new Date(2026, 11, 1, 22, 8, 15);

  it('writes a moment, a day and a time, padded', () => {
    expect(formatDateTime(moment)).toBe('01.12.2026 22:08:15');
    expect(formatDateTime(moment.toISOString())).toBe('01.12.2026 22:08:15');
    expect(formatDay(moment)).toBe('01.12.2026');
    expect(formatTime(new Date(2026, 0, 5, 7, 4, 9))).toBe('07:04:09');
  });

  it('reads a bare day as that day, not UTC midnight, and the database\'s timestamps', () => {
    expect(formatDay('2026-11-22')).toBe('22.11.2026');
    const pg = '2026-12-02 05:31:37.837+00';
    expect(formatDateTime(pg)).toBe(formatDateTime(new Date('2026-12-02T05:31:37.837Z')));
  });

  it('gives nothing for no value and an unreadable one as it came', () => {
    expect(formatDateTime(null)).toBe('');
    expect(formatDay(undefined)).toBe('');
    expect(formatDateTime('soon')).toBe('soon');
  });

  it('reads a typed day as shown (dd.MM.yyyy, d.M.yyyy) or as the API writes it, and nothing else', () => {
    expect(parseDay('01.03.2026')).toBe('2026-03-01');
    expect(parseDay(' 1.3.2026 ')).toBe('2026-03-01');
    expect(parseDay('2026-03-01')).toBe('2026-03-01');
    expect(parseDay('31.02.2026')).toBeNull();
    expect(parseDay('2026-13-01')).toBeNull();
    expect(parseDay('March 1')).toBeNull();
    expect(parseDay('')).toBeNull();
  });
});

describe('the one number format per language', () => {
  it('groups every number alike in a language, four digits too', () => {
    expect(formatNumber(5000, 'en')).toBe('5,000');
    expect(formatNumber(20499, 'en')).toBe('20,499');
    expect(formatNumber(558224, 'en')).toBe('558,224');
    // Russian groups with a no-break space, and (by its own rule) not four digits: always here.
    expect(formatNumber(5000, 'ru')).toBe('5\u00a0000');
    expect(formatNumber(20499, 'ru')).toBe('20\u00a0499');
    expect(formatNumber(1.5, 'ru')).toBe('1,5');
  });

  it('speaks English before a language is set', () => {
    expect(formatNumber(558224)).toBe('558,224');
  });
});
