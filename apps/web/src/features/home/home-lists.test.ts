import { describe, expect, it } from 'vitest';
import { ago } from './home-lists.tsx';

describe('how long ago, in the console\'s language', () => {
  const now = Date.parse('2026-11-25T12:00:00Z');
  it('takes the largest unit that fits', () => {
    expect(ago('2026-11-25T09:00:00Z', 'en', now)).toBe('3 hours ago');
    expect(ago('2026-11-22T11:00:00Z', 'en', now)).toBe('3 days ago');
    expect(ago('2026-11-25T11:59:40Z', 'en', now)).toBe('this minute');
    expect(ago('2026-11-25T09:00:00Z', 'ru', now)).toBe('3 часа назад');
    expect(ago(null, 'en', now)).toBe('');
  });
});
