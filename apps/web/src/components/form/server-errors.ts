import type { UseFormReturnType } from '@mantine/form';
import { ApiError } from '../../lib/api.ts';
import { notifyError } from '../../lib/errors.ts';

type SetErrors = Pick<UseFormReturnType<Record<string, unknown>>, 'setErrors'>;

/**
 * A save's `onError` that shows each field the server refused under its input: `fieldOf` maps a
 * contract field (`agent`, `items.0.name`) to the form's (`agentId`, `items`); `notify` also
 * shows the error as a notification (forms whose fields sit on another tab than the message).
 */
export function showServerErrors(form: SetErrors, opts: { fieldOf?: (field: string) => string; notify?: boolean } = {}) {
  const fieldOf = opts.fieldOf ?? ((f: string) => f);
  return (err: unknown) => {
    if (err instanceof ApiError && err.body?.details?.length) form.setErrors(Object.fromEntries(err.body.details.map((d) => [fieldOf(d.field), d.message])));
    if (opts.notify) notifyError(err);
  };
}
