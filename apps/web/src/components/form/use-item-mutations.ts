import { useMutation, type QueryKey } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { notifySuccess, type SuccessKind } from '../../lib/errors.ts';
import { queryClient } from '../../lib/query-client.ts';
import { useConfirmedMutation } from '../use-confirmed-mutation.ts';
import { showServerErrors, type SetErrors } from './server-errors.ts';

/**
 * The Save of an item's form: says "created" or "updated", puts the saved item in the cache under
 * `keyOf(id)` (the feature's key module), then `then` goes on (back to the list, to the new item's
 * page…); the fields the server refused show under their inputs.
 */
type SaveItemOptions<V, S> = {
  save: (values: V) => Promise<S>;
  isNew: boolean;
  keyOf: (id: number) => QueryKey;
  form: SetErrors;
  fieldOf?: (field: string) => string;
  then: (saved: S, values: V) => void;
};

export function useSaveItem<V, S extends { id: number }>(opts: SaveItemOptions<V, S>) {
  return useMutation({
    mutationFn: opts.save,
    onSuccess: (saved, values) => {
      notifySuccess(opts.isNew ? 'created' : 'updated');
      queryClient.setQueryData(opts.keyOf(saved.id), saved);
      opts.then(saved, values);
    },
    onError: showServerErrors(opts.form, opts.fieldOf),
  });
}

/**
 * useSaveItem for a form whose values become the item's input (`inputOf`), saved by the API's
 * `save(id, input)`: under the item's id, or as a new item when `id` is null.
 */
export function useSaveInput<V, I, S extends { id: number }>(
  id: number | null,
  opts: Omit<SaveItemOptions<V, S>, 'save' | 'isNew'> & { save: (id: number | null, input: I) => Promise<S>; inputOf: (values: V) => I },
) {
  const { save, inputOf, ...rest } = opts;
  return useSaveItem({ ...rest, save: (values: V) => save(id, inputOf(values)), isNew: id === null });
}

/**
 * The Delete of an item's page, asked first (spread `dialog` into a ConfirmDialog): deletes, says
 * so, lets `then` clear what else the item was in (lookups, lists) and goes back to `backTo`.
 */
export function useDeleteItem(opts: { remove: () => Promise<unknown>; backTo: string; toast?: SuccessKind; then?: () => void }) {
  const navigate = useNavigate();
  return useConfirmedMutation({
    mutationFn: opts.remove,
    onSuccess: () => {
      notifySuccess(opts.toast ?? 'deleted');
      opts.then?.();
      void navigate(opts.backTo);
    },
  });
}
