import { useMutation, type DefaultError, type UseMutationOptions } from '@tanstack/react-query';
import { useState } from 'react';

/**
 * A mutation that runs only after a ConfirmDialog's yes: `ask(target)` opens the dialog (the
 * target is what it asks about, nothing for a page-wide action), its confirm runs the mutation on
 * that target, and the dialog closes when the mutation settles. Spread `dialog` into ConfirmDialog.
 */
export function useConfirmedMutation<TVariables = void, TData = unknown>(options: UseMutationOptions<TData, DefaultError, TVariables>) {
  // Boxed, so that a target that is `undefined` (a page-wide action) still opens the dialog.
  const [asked, setAsked] = useState<{ target: TVariables } | null>(null);
  const mutation = useMutation<TData, DefaultError, TVariables>({
    ...options,
    onSettled: (...args) => {
      setAsked(null);
      return options.onSettled?.(...args);
    },
  });
  return {
    mutation,
    target: asked?.target ?? null,
    ask: (target: TVariables) => setAsked({ target }),
    dialog: {
      opened: asked !== null,
      busy: mutation.isPending,
      onConfirm: () => asked && mutation.mutate(asked.target),
      onClose: () => setAsked(null),
    },
  };
}
