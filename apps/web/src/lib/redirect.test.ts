import { describe, expect, it } from 'vitest';
import { loginPathFor, safeRedirect } from './redirect.ts';

const origin = 'https://console.example';

describe('safeRedirect', () => {
  it('keeps a same-origin path with its query and hash', () => {
    expect(safeRedirect('/users?x=1&y=2#top', origin)).toBe('/users?x=1&y=2#top');
  });
  it.each([null, '', 'users', '//evil.example/x', '/\\evil.example', 'https://evil.example/', 'javascript:alert(1)'])(
    'refuses %s',
    (raw) => expect(safeRedirect(raw, origin)).toBe('/home'),
  );
  it('does not loop back to the login form', () => {
    expect(safeRedirect('/login-form?redirect=/users', origin)).toBe('/home');
  });
});

describe('loginPathFor', () => {
  it('carries the full path in the redirect query', () => {
    expect(loginPathFor('/devices?filter=a b')).toBe('/login-form?redirect=%2Fdevices%3Ffilter%3Da+b');
  });
  it('drops the redirect for home', () => {
    expect(loginPathFor('/home')).toBe('/login-form');
  });
});
