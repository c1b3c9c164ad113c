import { describe, expect, it } from 'vitest';
import { deviceCookie, deviceTokens } from './device-cookie.ts';

const token = (c: string) => c.repeat(43);

describe('the device cookie', () => {
  it('is read among other cookies, dropping malformed tokens and keeping four', () => {
    const value = [token('a'), 'short', token('b'), token('c'), token('d'), token('e')].join('.');
    expect(deviceTokens(`theme=dark; pagewatch_device=${value}; x=1`)).toEqual([token('a'), token('b'), token('c'), token('d')]);
    expect(deviceTokens(undefined)).toEqual([]);
    expect(deviceTokens('pagewatch_device=')).toEqual([]);
  });

  it('is HttpOnly and SameSite=Strict, Secure on HTTPS only, with no Path (the sign-in URL\'s folder)', () => {
    expect(deviceCookie([token('a')], false)).toBe(`pagewatch_device=${token('a')}; Max-Age=31536000; HttpOnly; SameSite=Strict`);
    expect(deviceCookie([token('a'), token('b')], true)).toBe(`pagewatch_device=${token('a')}.${token('b')}; Max-Age=31536000; HttpOnly; SameSite=Strict; Secure`);
  });
});
