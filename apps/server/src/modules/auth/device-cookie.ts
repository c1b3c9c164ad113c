/**
 * The device cookie (OWASP "device cookies"): a random token the server hands a browser after
 * a successful sign-in and keeps the hash of (known_devices). It cannot be forged, and the
 * browser sends it back on its own, so sign-in failures on a login from elsewhere do not slow
 * its owner down in a browser they have used before.
 */
export const DEVICE_COOKIE = 'pagewatch_device';
/** Unused this long, a device is forgotten (its cookie lives as long, renewed at each sign-in). */
export const DEVICE_TTL_MS = 365 * 86_400_000;
/** Browsers remembered per user (the most recently used): scripts that sign in afresh each time. */
export const DEVICES_PER_USER = 20;
/** Tokens one cookie carries: a browser shared by a few users is known for each of them. */
const TOKENS_PER_COOKIE = 4;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The device tokens a request's Cookie header carries (malformed ones dropped). */
export function deviceTokens(cookieHeader: string | undefined): string[] {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [name, value] = part.trim().split('=', 2);
    if (name === DEVICE_COOKIE && value) return value.split('.').filter((t) => TOKEN.test(t)).slice(0, TOKENS_PER_COOKIE);
  }
  return [];
}

/**
 * The Set-Cookie value for these tokens, newest first. No Path: the browser defaults it to the
 * sign-in URL's folder, which is right also when a proxy serves the API under a prefix. Secure
 * on HTTPS only: a console on plain HTTP in a LAN would otherwise never get it.
 */
export function deviceCookie(tokens: string[], secure: boolean): string {
  const value = tokens.slice(0, TOKENS_PER_COOKIE).join('.');
  return `${DEVICE_COOKIE}=${value}; Max-Age=${DEVICE_TTL_MS / 1000}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}
