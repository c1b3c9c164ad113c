import type { UseFormReturnType } from '@mantine/form';
import { ApiError } from '../../lib/api.ts';

export type SetErrors = Pick<UseFormReturnType<Record<string, unknown>>, 'setErrors'>;

/**
 * The fields a refused save names, as form errors (null when it names none): `fieldOf` maps a
 * contract field (`agent`, `items.0.name`) to the form's (`agentId`, `items`).
 */
export function serverFieldErrors(err: unknown, fieldOf: (field: string) => string = (f) => f): Record<string, string> | null {
  if (!(err instanceof ApiError) || !err.body?.details?.length) return null;
  return Object.fromEntries(err.body.details.map((d) => [fieldOf(d.field), d.message]));
}

/** A save's `onError` that shows each field the server refused under its input (the query client's toast shows the message). */
export function showServerErrors(form: SetErrors, fieldOf?: (field: string) => string) {
  return (err: unknown) => {
    const fields = serverFieldErrors(err, fieldOf);
    if (fields) form.setErrors(fields);
  };
}
