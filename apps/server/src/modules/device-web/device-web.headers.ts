import { DEVICE_WEB_PREFIX } from '@pagewatch/contracts/device-web';

/**
 * What passes between the browser and the device (issue 55), as pure functions: the console's
 * credentials never reach the device, the device's cookies never reach the browser (they are
 * kept per session), its redirects stay on the device, and its page gets a sandbox with no
 * script access to the console's origin.
 */

/** Hop-by-hop headers and those that belong to this server, not the device. */
const DROPPED_REQUEST = new Set([
  'cookie', 'authorization', 'proxy-authorization', 'host', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer',
  'transfer-encoding', 'content-length', 'expect', 'origin', 'referer', 'accept-encoding', 'forwarded', 'via',
]);

/**
 * The proxied page's policy: a sandbox without allow-same-origin gives it an opaque origin, so
 * its scripts cannot read the console's storage (the session token) nor call its API as the
 * user; it loads from this server only (its own session's paths), and is never framed.
 */
export const DEVICE_WEB_CSP = [
  'sandbox allow-scripts allow-forms allow-popups allow-modals allow-downloads',
  "default-src 'self' data: blob:",
  "script-src 'self' 'unsafe-inline' 'unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "object-src 'none'",
].join('; ');

/** Headers every proxied answer carries over the console's (helmet's) own. */
export const DEVICE_WEB_HEADERS: Record<string, string> = {
  'content-security-policy': DEVICE_WEB_CSP,
  // The session's token is in the path: no Referer may carry it to another site.
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  // The sandboxed page's origin is opaque: its own images and scripts are "cross-origin" loads.
  'cross-origin-resource-policy': 'cross-origin',
  'x-robots-tag': 'noindex',
};

/**
 * On an origin of its own (PAGEWATCH_DEVICE_WEB_ORIGIN) the page needs no sandbox: its host is
 * its session's alone, so the browser keeps it from the console's storage, and its cookie binds
 * it to one browser. The rest of the policy stays.
 */
export const DEVICE_WEB_HEADERS_OWN_ORIGIN: Record<string, string> = {
  ...DEVICE_WEB_HEADERS,
  'content-security-policy': DEVICE_WEB_CSP.split('; ').slice(1).join('; '),
  'cross-origin-resource-policy': 'same-origin',
};

export type HeaderPairs = [string, string][];

/** The browser's headers as the device gets them, with the session's cookies for it. */
export function requestHeadersForDevice(headers: Record<string, string | string[] | undefined>, jar: Record<string, string>): HeaderPairs {
  const out: HeaderPairs = [];
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (value === undefined || DROPPED_REQUEST.has(lower) || lower.startsWith('x-forwarded-') || lower.startsWith('sec-') || lower.startsWith('proxy-')) continue;
    for (const v of [value].flat()) out.push([lower, v.slice(0, 8000)]);
    if (out.length >= 90) break;
  }
  // Printers compress rarely; asking for none lets the page's links be rewritten.
  out.push(['accept-encoding', 'identity']);
  const cookie = Object.entries(jar).map(([k, v]) => `${k}=${v}`).join('; ');
  if (cookie) out.push(['cookie', cookie.slice(0, 8000)]);
  return out;
}

/** The jar after the device's Set-Cookie headers (an expired or emptied cookie is removed). */
export function updateJar(jar: Record<string, string>, setCookies: string[]): Record<string, string> {
  const next = { ...jar };
  for (const line of setCookies) {
    const [pair, ...attrs] = line.split(';');
    const eq = pair!.indexOf('=');
    if (eq <= 0) continue;
    const name = pair!.slice(0, eq).trim();
    const value = pair!.slice(eq + 1).trim();
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,200}$/.test(name)) continue;
    const gone = !value || attrs.some((a) => /^\s*max-age\s*=\s*(0|-\d+)\s*$/i.test(a) || (/^\s*expires\s*=/i.test(a) && Date.parse(a.split('=').slice(1).join('=')) < Date.now()));
    if (gone) delete next[name];
    else if (Object.keys(next).length < 50 || name in next) next[name] = value.slice(0, 4000);
  }
  return next;
}

/**
 * Where a device's redirect goes on this server: a path of the device (relative, or absolute on
 * its own scheme, host and port) under the session's prefix; anywhere else is null (refused).
 */
export function rewriteLocation(location: string, token: string, device: { scheme: string; host: string; port: number }, requestPath: string): string | null {
  const origin = `${device.scheme}://${device.host.includes(':') ? `[${device.host}]` : device.host}:${device.port}`;
  let url: URL;
  try {
    url = new URL(location, `${origin}${requestPath}`);
  } catch {
    return null;
  }
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (url.protocol !== `${device.scheme}:` || host !== device.host || port !== device.port || url.username || url.password) return null;
  return `${DEVICE_WEB_PREFIX}${token}${url.pathname}${url.search}${url.hash}`;
}

/** A page's root-relative links (`href="/x"`, `url(/x)`) under the session's prefix; `//host` links stay as they are (the CSP refuses them). */
export function rewriteLinks(text: string, token: string): string {
  const prefix = `${DEVICE_WEB_PREFIX}${token}/`;
  return text
    .replace(/(\s(?:href|src|action|background|data)\s*=\s*)(["']?)\/(?![/\\])/gi, (_m, attr: string, quote: string) => `${attr}${quote}${prefix}`)
    .replace(/(url\(\s*["']?)\/(?![/\\])/gi, (_m, start: string) => `${start}${prefix}`);
}

/** A request path as the device gets it: one leading slash (`//host/x` is a path of the device, never another host). */
export function devicePath(rawTail: string): string {
  const tail = rawTail.replace(/^[/\\]+/, '');
  return `/${tail}`.replace(/[\s#\\]/g, (c) => encodeURIComponent(c));
}
