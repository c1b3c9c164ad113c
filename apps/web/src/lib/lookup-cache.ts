import { useQuery } from '@tanstack/react-query';
import { queryClient } from './query-client.ts';
import { subscribeDictionaryEvents } from './ws.ts';

/**
 * Lookups (dictionary items, printer types, statuses…) change rarely, so they are fetched
 * once and kept until the server says a dictionary changed. The cache is dropped 100 ms after
 * DICTIONARY_CHANGED so that a burst of changes costs one refetch, not one per message.
 */
export const LOOKUP_CLEAR_DELAY_MS = 100;
const LOOKUP_KEY = 'lookup';

const cache = new Map<string, Promise<unknown>>();

/** The cached value for `key`, loading it with `load` the first time (failures are not kept). */
export function cachedLookup<T>(key: string, load: () => Promise<T>): Promise<T> {
  let hit = cache.get(key) as Promise<T> | undefined;
  if (!hit) {
    hit = load();
    cache.set(key, hit);
    hit.catch(() => cache.delete(key));
  }
  return hit;
}

export function clearLookups() {
  cache.clear();
  void queryClient.invalidateQueries({ queryKey: [LOOKUP_KEY] });
}

/** A lookup as a query: `useLookup('printer-types', () => api('/printer-types/'))`. */
export function useLookup<T>(key: string, load: () => Promise<T>) {
  return useQuery({
    queryKey: [LOOKUP_KEY, key],
    queryFn: () => cachedLookup(key, load),
    staleTime: Infinity,
  });
}

/** Keeps the cache in step with the server while signed in; returns the stop function. */
export function startLookupSync(): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = subscribeDictionaryEvents(() => {
    clearTimeout(timer);
    timer = setTimeout(clearLookups, LOOKUP_CLEAR_DELAY_MS);
  });
  return () => {
    clearTimeout(timer);
    stop();
    cache.clear();
  };
}
