import { useQuery, type QueryKey } from '@tanstack/react-query';
import { useParams } from 'react-router';

/**
 * The `{id}` of an item's page (`/agent/{id}`…): `id` is the stored item's, null when the page
 * creates one (spec section 2: an id below 0, or none, opens an empty form).
 */
export function useItemId() {
  const { id: idParam } = useParams();
  const numeric = Number(idParam);
  const isNew = idParam === undefined || !Number.isInteger(numeric) || numeric < 0;
  return { idParam, isNew, id: isNew ? null : numeric };
}

/** The page's `{id}` and its stored item, fetched under the feature's key; nothing is fetched for a new one. */
export function useItemQuery<T>(keyOf: (id: number) => QueryKey, fetch: (id: number) => Promise<T>) {
  const { idParam, isNew, id } = useItemId();
  const item = useQuery({ queryKey: keyOf(id ?? -1), queryFn: () => fetch(id!), enabled: id !== null });
  return { idParam, isNew, item };
}
