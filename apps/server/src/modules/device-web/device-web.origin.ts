import type { DeviceWebOrigin } from '../../config.ts';

/**
 * Device web pages on an origin of their own (issue 55, PAGEWATCH_DEVICE_WEB_ORIGIN): a session's
 * page is served only on `<label>.<suffix>`, a host no other session and not the console has. The
 * console's storage is then out of the page's reach by the browser's same-origin rule (no CSP
 * sandbox needed), and a cookie of that host can bind the session to the browser that opened it.
 */

/** The session label: 32 lowercase hex characters, one DNS label. */
const LABEL = /^[0-9a-f]{32}$/;

/** The cookie a session's ticket is swapped for, on the session's host only. */
export const DEVICE_WEB_COOKIE = 'pagewatch_device_web';
/** The query parameter of the one-time ticket in the URL the console opens. */
export const DEVICE_WEB_TICKET = 'pagewatch_ticket';
/** How long the ticket of a new session may be swapped (the console opens the tab at once). */
export const DEVICE_WEB_TICKET_MS = 60_000;

/** The session host's origin: `https://<label>.devices.example.com[:port]`. */
export function sessionOrigin(o: DeviceWebOrigin, label: string): string {
  return `${o.scheme}://${label}.${o.suffix}${o.port ? `:${o.port}` : ''}`;
}

/** A Host header's name, lowercased and without its port. */
function hostName(host: string | undefined): string {
  const h = (host ?? '').toLowerCase();
  return h.startsWith('[') ? h.slice(0, h.indexOf(']') + 1) : h.replace(/:\d+$/, '');
}

/** Whether a request's Host is under the device web origin (any label, valid or not). */
export function onDeviceWebHost(o: DeviceWebOrigin, host: string | undefined): boolean {
  return hostName(host).endsWith(`.${o.suffix}`);
}

/** The session label a Host names, or null when it names none. */
export function labelOfHost(o: DeviceWebOrigin, host: string | undefined): string | null {
  const name = hostName(host);
  if (!name.endsWith(`.${o.suffix}`)) return null;
  const label = name.slice(0, -(o.suffix.length + 1));
  return LABEL.test(label) ? label : null;
}

/** A cookie's value from a Cookie header, or null. */
export function cookieValue(header: string | string[] | undefined, name: string): string | null {
  for (const line of [header ?? []].flat()) {
    for (const part of line.split(';')) {
      const eq = part.indexOf('=');
      if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
    }
  }
  return null;
}

/** The session cookie's Set-Cookie: this host only (no Domain), HttpOnly, SameSite=Lax, Secure on https, until the session ends. */
export function sessionCookie(o: DeviceWebOrigin, value: string, expiresAt: Date): string {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  return `${DEVICE_WEB_COOKIE}=${value}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${o.scheme === 'https' ? '; Secure' : ''}`;
}

/** A tail's one-time ticket (the only thing the console's URL puts in its query), and the tail without it. */
export function ticketOf(tail: string): { ticket: string | null; tail: string } {
  const m = new RegExp(`^(/[^?]*)\\?${DEVICE_WEB_TICKET}=([A-Za-z0-9_-]{43})$`).exec(tail);
  return m ? { ticket: m[2]!, tail: m[1]! } : { ticket: null, tail };
}
