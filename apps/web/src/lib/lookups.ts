import { useQuery } from '@tanstack/react-query';
import { queryClient } from './query-client.ts';
import { sharedKeys } from './query-keys.ts';
import { subscribeDictionaryEvents } from './ws.ts';

/**
 * Lookups (dictionary items, printer types, statuses…) change rarely: TanStack Query keeps them
 * under one key (never stale) until the server says a dictionary changed. They are invalidated
 * 100 ms after DICTIONARY_CHANGED so that a burst of changes costs one refetch, not one per message.
 */
export const LOOKUP_CLEAR_DELAY_MS = 100;

/** A lookup as a query: `useLookup('printer-types', () => api('/printer-types/'))`. */
export function useLookup<T>(key: string, load: () => Promise<T>) {
  return useQuery({ queryKey: sharedKeys.lookup(key), queryFn: load, staleTime: Infinity });
}

/** Starts loading a lookup before a screen asks for it (a screen's chunk then finds it loaded or on its way). */
export function prefetchLookup<T>(key: string, load: () => Promise<T>) {
  void queryClient.prefetchQuery({ queryKey: sharedKeys.lookup(key), queryFn: load, staleTime: Infinity });
}

/** Every lookup is loaded again when next used (after a change the screen made itself). */
export function clearLookups() {
  void queryClient.invalidateQueries({ queryKey: sharedKeys.lookups });
}

/** Keeps the lookups in step with the server while signed in; returns the stop function. */
export function startLookupSync(): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = subscribeDictionaryEvents(() => {
    clearTimeout(timer);
    timer = setTimeout(clearLookups, LOOKUP_CLEAR_DELAY_MS);
  });
  return () => {
    clearTimeout(timer);
    stop();
    queryClient.removeQueries({ queryKey: sharedKeys.lookups });
  };
}
