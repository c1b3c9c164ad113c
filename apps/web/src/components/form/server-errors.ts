import type { UseFormReturnType } from '@mantine/form';
import { ApiError } from '../../lib/api.ts';

export type SetErrors = Pick<UseFormReturnType<Record<string, unknown>>, 'setErrors'>;

/**
 * A save's `onError` that shows each field the server refused under its input (the query
 * client's toast shows the message too); `fieldOf` maps a contract field (`agent`,
 * `items.0.name`) to the form's (`agentId`, `items`).
 */
export function showServerErrors(form: SetErrors, fieldOf: (field: string) => string = (f) => f) {
  return (err: unknown) => {
    if (err instanceof ApiError && err.body?.details?.length) form.setErrors(Object.fromEntries(err.body.details.map((d) => [fieldOf(d.field), d.message])));
  };
}
