import { clientConfigSchema, type ClientConfig } from '@pagewatch/contracts/config';
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
  const parsed = res.ok ? clientConfigSchema.safeParse(await res.json().catch(() => null)) : null;
  if (!parsed?.success) throw new ApiError(res.ok ? 0 : res.status, url, null);
  current = parsed.data;
  setApiBase(current.API);
  return current;
}

/** The startup config; only valid once the app has started (the loader waits for it). */
export function clientConfig(): ClientConfig {
  if (!current) throw new Error('client config is not loaded yet');
  return current;
}
