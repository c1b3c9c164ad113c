import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { notifyError } from './errors.ts';

declare module '@tanstack/react-query' {
  interface Register {
    /** `meta: { silent: true }` on a query or mutation that shows its own error. */
    queryMeta: { silent?: boolean };
    mutationMeta: { silent?: boolean };
  }
}

/**
 * One client for the app. Failed queries and mutations show the error toast of spec
 * section 8 unless they opt out with `meta: { silent: true }`.
 */
export const queryClient = new QueryClient({
  queryCache: new QueryCache({
    onError: (err, query) => {
      if (!query.meta?.silent) notifyError(err);
    },
  }),
  mutationCache: new MutationCache({
    onError: (err, _v, _c, mutation) => {
      if (!mutation.meta?.silent) notifyError(err);
    },
  }),
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
});
