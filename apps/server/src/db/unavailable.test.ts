import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './unavailable.ts';

describe('isDatabaseUnavailable', () => {
  it('knows an outage by SQLSTATE, socket code or pg message, also wrapped by Drizzle', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Failed query: select 1', { cause: Object.assign(new Error('y'), { code: '08006' }) }))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([Object.assign(new Error('z'), { code: 'ECONNREFUSED' })]))).toBe(true);
  });

  it('leaves bugs and bad statements alone', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('undefined is not a function'))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});
