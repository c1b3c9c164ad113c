import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { LANGS, type Lang } from './i18n/messages.ts';
import { SECRET_KEY_FILE, secretKeyFromEnv } from './lib/secret-key.ts';

/** Everything the server reads from its environment; the README's table lists the same. */
export type Config = {
  port: number;
  host: string;
  databaseUrl: string | null;
  dataDir: string;
  adminPassword: string | null;
  webDist: string;
  publicUrl: string | null;
  networkRangeShowPorts: boolean;
  logLevel: string;
  /**
   * Which reverse proxies' X-Forwarded-* headers are believed (TRUST_PROXY): none (false), the
   * nearest N hops (a number), or the proxies at these addresses and ranges (a list). Never
   * "any": the client writes the left of X-Forwarded-For, so it could choose the address that
   * sign-in throttling counts. Fastify takes it through `trustedProxies`.
   */
  trustProxy: false | number | string[];
  /** How long a resolved session is reused without asking the database (0: never). */
  sessionCacheMs: number;
  /** Secret key that POST /api/versions/upload requires; unset: uploads are refused. */
  modelsSecret: string | null;
  /** Run one agent inside the server for the local network. */
  builtinAgent: boolean;
  /** The built-in agent's poll period in seconds, over the agents' setting (the demo polls every minute); null: the setting. */
  builtinAgentPeriodSeconds: number | null;
  /**
   * Tests only (PAGEWATCH_DEVICE_WEB_LOOPBACK=1): the built-in agent may reach device web pages on
   * 127.0.0.0/8 (not its own addresses), where tests stand a printer's page. Refused with NODE_ENV=production.
   */
  deviceWebLoopback: boolean;
  /**
   * PAGEWATCH_DEVICE_WEB_ORIGIN (e.g. https://*.devices.example.com): device web pages are served
   * on a host of their own per session under this wildcard, each bound to the browser that opened
   * it by a cookie of that host. null: under the console's own origin with a CSP sandbox.
   */
  deviceWebOrigin: DeviceWebOrigin | null;
  /** Port of the Prometheus metrics listener (null: no metrics), apart from the public API. */
  metricsPort: number | null;
  metricsHost: string;
  /**
   * The license issuer's Ed25519 public key (PAGEWATCH_LICENSE_KEY): PEM text, or the path of a
   * PEM file; by default `license-issuer.pem` in the data directory.
   */
  licenseIssuerKey: string;
  /** Support contacts the product page shows (unset: not shown). */
  support: { email: string | null; phone: string | null; url: string | null };
  copyright: string;
  /**
   * Cloud mode (PAGEWATCH_CLOUD): one instance for many customers, each a top-level location
   * under DEFAULT; the login is the e-mail, and instance screens stay at DEFAULT.
   */
  cloud: boolean;
  /** The folder whose files a cloud ADMIN downloads from /product (PAGEWATCH_DOWNLOADS_DIR; unset: none). */
  downloadsDir: string | null;
  /**
   * Exports (report files, scheduled report e-mails) one server makes at once
   * (PAGEWATCH_EXPORTS_RUNNING) and how many more wait for a turn (PAGEWATCH_EXPORTS_WAITING);
   * a download beyond those is refused with 503 and Retry-After (issue 39).
   */
  exports: { running: number; waiting: number };
  /**
   * The server's language (PAGEWATCH_LANGUAGE, en or ru): that of mails and their files (headers,
   * separator, dates, the sheet's name) to users who have not signed in yet; a user's own is their
   * browser's at their last sign-in.
   */
  language: Lang;
  /**
   * Telegram's Bot API in place of https://api.telegram.org (PAGEWATCH_TELEGRAM_API_URL): for
   * tests only, where a local receiver stands in; null in use.
   */
  telegramApiUrl: string | null;
  /**
   * The key that encrypts the stored secrets (issue 43): PAGEWATCH_SECRET_KEY, 32 bytes in base64
   * or hex; unset: the key in `secretKeyFile` (PAGEWATCH_SECRET_KEY_FILE, by default `secret.key`
   * in the data directory), made at the first start.
   */
  secretKey: Buffer | null;
  secretKeyFile: string;
};

/** A whole number of seconds from 10 to a day, or null when unset or not one. */
function seconds(v: string | undefined): number | null {
  const n = Number(v);
  return v && Number.isInteger(n) && n >= 10 && n <= 86_400 ? n : null;
}

/** proxy-addr's names for ranges, accepted besides addresses and CIDRs. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function proxyEntry(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address, bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: off, a list of proxy addresses/CIDRs, or a hop count. `true` (and the other
 * yes-words) means a proxy on this machine (`loopback`): the address it saw is the client's,
 * what the client wrote further left in X-Forwarded-For is ignored, and a client reaching the
 * server directly from elsewhere is not believed at all.
 */
export function parseTrustProxy(v: string | undefined): Config['trustProxy'] {
  const value = (v ?? '').trim().toLowerCase();
  if (['', '0', 'false', 'no', 'off'].includes(value)) return false;
  if (['true', 'yes', 'on'].includes(value)) return ['loopback'];
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 10) throw new Error(`TRUST_PROXY hop count must be 1-10, got "${v}"`);
    return hops;
  }
  const entries = value.split(',').map((e) => e.trim()).filter(Boolean);
  const bad = entries.find((e) => !proxyEntry(e));
  if (bad !== undefined || !entries.length) {
    throw new Error(`TRUST_PROXY must be false, true (one hop), a hop count or a comma-separated list of proxy addresses/CIDRs, got "${v}"`);
  }
  return entries;
}

/**
 * Fastify's trustProxy for the configured proxies. A hop count becomes "the N nearest hops,
 * whoever they are" (Fastify itself would trust no hop for a number, failing closed): right
 * only when the server is reachable through the proxies alone, as the README says.
 */
export function trustedProxies(trust: Config['trustProxy']): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}

/** A whole number from `min` to 1,000 (unset: `fallback`); anything else stops the start with its name. */
function count(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const v = env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > 1000) throw new Error(`${name} must be a whole number from ${min} to 1000, got "${v}"`);
  return n;
}

function flag(v: string | undefined, fallback: boolean): boolean {
  if (v === undefined || v === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(v.toLowerCase());
}

function deviceWebLoopback(env: NodeJS.ProcessEnv): boolean {
  if (!flag(env.PAGEWATCH_DEVICE_WEB_LOOPBACK, false)) return false;
  if (env.NODE_ENV === 'production') throw new Error('PAGEWATCH_DEVICE_WEB_LOOPBACK is for tests only and is refused with NODE_ENV=production');
  return true;
}

/** A wildcard origin of the device web pages: its scheme, the host suffix after "*.", and its port ('' for the scheme's own). */
export type DeviceWebOrigin = { scheme: 'http' | 'https'; suffix: string; port: string };

function deviceWebOrigin(v: string | undefined): DeviceWebOrigin | null {
  if (v === undefined || v === '') return null;
  const m = /^(https?):\/\/\*\.((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?::(\d{1,5}))?\/?$/i.exec(v.trim());
  const port = m?.[3] ? Number(m[3]) : null;
  if (!m || (port !== null && (port < 1 || port > 65535))) {
    throw new Error(`PAGEWATCH_DEVICE_WEB_ORIGIN must be a wildcard origin such as https://*.devices.example.com (a host of its own per session under it), got "${v}"`);
  }
  return { scheme: m[1]!.toLowerCase() as 'http' | 'https', suffix: m[2]!.toLowerCase(), port: m[3] ?? '' };
}

function language(v: string | undefined): Lang {
  if (v === undefined || v === '') return 'en';
  if (!(LANGS as readonly string[]).includes(v.toLowerCase())) throw new Error(`PAGEWATCH_LANGUAGE must be one of ${LANGS.join(', ')}, got "${v}"`);
  return v.toLowerCase() as Lang;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT || 8080);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`PORT must be 1-65535, got "${env.PORT}"`);
  const metricsPort = env.PAGEWATCH_METRICS_PORT ? Number(env.PAGEWATCH_METRICS_PORT) : null;
  if (metricsPort !== null && (!Number.isInteger(metricsPort) || metricsPort < 1 || metricsPort > 65535)) {
    throw new Error(`PAGEWATCH_METRICS_PORT must be 1-65535, got "${env.PAGEWATCH_METRICS_PORT}"`);
  }
  const dataDir = resolve(env.PAGEWATCH_DATA_DIR || 'data');
  return {
    port,
    host: env.HOST || '0.0.0.0',
    databaseUrl: env.DATABASE_URL || null,
    dataDir,
    adminPassword: env.PAGEWATCH_ADMIN_PASSWORD || null,
    webDist: resolve(env.PAGEWATCH_WEB_DIST || new URL('../../web/dist', import.meta.url).pathname),
    publicUrl: env.PAGEWATCH_PUBLIC_URL || null,
    networkRangeShowPorts: flag(env.NETWORK_RANGE_SHOW_PORTS, true),
    logLevel: env.LOG_LEVEL || 'info',
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    sessionCacheMs: Math.max(0, Number(env.PAGEWATCH_SESSION_CACHE_MS ?? 5000) || 0),
    modelsSecret: env.PAGEWATCH_MODELS_SECRET || null,
    builtinAgent: flag(env.PAGEWATCH_BUILTIN_AGENT, false),
    builtinAgentPeriodSeconds: seconds(env.PAGEWATCH_BUILTIN_AGENT_PERIOD_SECONDS),
    deviceWebLoopback: deviceWebLoopback(env),
    deviceWebOrigin: deviceWebOrigin(env.PAGEWATCH_DEVICE_WEB_ORIGIN),
    metricsPort,
    metricsHost: env.PAGEWATCH_METRICS_HOST || '127.0.0.1',
    licenseIssuerKey: env.PAGEWATCH_LICENSE_KEY || resolve(dataDir, 'license-issuer.pem'),
    support: { email: env.PAGEWATCH_SUPPORT_EMAIL || null, phone: env.PAGEWATCH_SUPPORT_PHONE || null, url: env.PAGEWATCH_SUPPORT_URL || null },
    copyright: env.PAGEWATCH_COPYRIGHT || '© 2026 the Pagewatch authors',
    cloud: flag(env.PAGEWATCH_CLOUD, false),
    downloadsDir: env.PAGEWATCH_DOWNLOADS_DIR ? resolve(env.PAGEWATCH_DOWNLOADS_DIR) : null,
    exports: { running: count(env, 'PAGEWATCH_EXPORTS_RUNNING', 2, 1), waiting: count(env, 'PAGEWATCH_EXPORTS_WAITING', 20, 0) },
    language: language(env.PAGEWATCH_LANGUAGE),
    telegramApiUrl: env.PAGEWATCH_TELEGRAM_API_URL || null,
    secretKey: secretKeyFromEnv(env.PAGEWATCH_SECRET_KEY),
    secretKeyFile: resolve(env.PAGEWATCH_SECRET_KEY_FILE || resolve(dataDir, SECRET_KEY_FILE)),
  };
}
