import type { ClientConfig } from '@pagewatch/contracts/config';
import { ApiError, setApiBase } from './api.ts';

let current: ClientConfig | null = null;

/**
 * The first request for `/config.json` leaves as this module loads, beside the reader's texts
 * (i18n.ts) rather than after them; a later start (after a failure) asks again.
 */
const fetchConfig = () => fetch('/config.json', { cache: 'no-store' });
let early: Promise<Response> | null = typeof window === 'undefined' ? null : fetchConfig();
early?.catch(() => undefined);

/**
 * Reads `/config.json` from the app root (spec section 7, startup) and stores the API base
 * where the API client finds it. Unreachable or malformed counts as "could not connect".
 */
export async function loadClientConfig(): Promise<ClientConfig> {
  const url = '/config.json';
  let res: Response;
  try {
    res = await (early ?? fetchConfig());
  } catch {
    throw new ApiError(0, url, null);
  } finally {
    early = null;
  }
  const parsed = res.ok ? asClientConfig(await res.json().catch(() => null)) : null;
  if (!parsed) throw new ApiError(res.ok ? 0 : res.status, url, null);
  current = parsed;
  setApiBase(current.API);
  return current;
}

/**
 * `/config.json` as contracts' clientConfigSchema describes it, checked by hand: the console's
 * start loads no zod (issue 22), and this is the one document it reads before signing in.
 */
export function asClientConfig(json: unknown): ClientConfig | null {
  if (typeof json !== 'object' || json === null) return null;
  const c = json as Record<string, unknown>;
  if (typeof c.API !== 'string' || typeof c.WS !== 'string' || typeof c.NETWORK_RANGE_SHOW_PORTS !== 'boolean') return null;
  if (c.CLOUD !== undefined && typeof c.CLOUD !== 'boolean') return null;
  if (c.MAIL_LINKS !== undefined && typeof c.MAIL_LINKS !== 'boolean') return null;
  return { API: c.API, WS: c.WS, NETWORK_RANGE_SHOW_PORTS: c.NETWORK_RANGE_SHOW_PORTS, CLOUD: c.CLOUD ?? false, MAIL_LINKS: c.MAIL_LINKS ?? true };
}

/** The startup config; only valid once the app has started (the loader waits for it). */
export function clientConfig(): ClientConfig {
  if (!current) throw new Error('client config is not loaded yet');
  return current;
}
