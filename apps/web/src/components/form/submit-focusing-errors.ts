import type { UseFormReturnType } from '@mantine/form';
import type { FormEvent } from 'react';

type Errors = Record<string, unknown>;

/**
 * The first field in page order that has an error: `paths` are the inputs' `data-path`s as they
 * appear, `errors` the form's errors (a nested error such as `items.0.name` belongs to `items`).
 */
export function firstErrorPath(paths: readonly string[], errors: Errors): string | null {
  const broken = Object.keys(errors).filter((k) => errors[k] !== undefined && errors[k] !== null && errors[k] !== false);
  return paths.find((p) => broken.some((e) => e === p || e.startsWith(`${p}.`))) ?? null;
}

const FOCUSABLE = 'input:not([type="hidden"]):not([disabled]), textarea:not([disabled]), select:not([disabled]), button:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Focuses the first broken field of `root` (the form; the page when unknown) and shows it. */
export function focusFirstError(errors: Errors, root: ParentNode | null = null) {
  const scope = root ?? document;
  const nodes = [...scope.querySelectorAll<HTMLElement>('[data-path]')];
  const path = firstErrorPath(
    nodes.map((n) => n.getAttribute('data-path') ?? ''),
    errors,
  );
  const node = path === null ? scope.querySelector<HTMLElement>('[aria-invalid="true"]') : nodes.find((n) => n.getAttribute('data-path') === path);
  const target = node?.matches(FOCUSABLE) ? node : node?.querySelector<HTMLElement>(FOCUSABLE);
  target?.focus();
}

type SubmitForm<V extends Record<string, unknown>, T> = Pick<UseFormReturnType<V, T>, 'onSubmit'>;

/**
 * `form.onSubmit(handler)` that, when validation fails, focuses the first broken field (spec
 * section 5: "failed validation focuses the first broken field and stops"). Every form of the
 * console submits through it; submit-focusing-errors.test.ts checks that none forgets.
 */
export function submitFocusingErrors<V extends Record<string, unknown>, T>(form: SubmitForm<V, T>, handler: Parameters<SubmitForm<V, T>['onSubmit']>[0]) {
  return form.onSubmit(handler, (errors, _values, event?: FormEvent<HTMLFormElement>) => {
    // React clears currentTarget after the handler; an async validation falls back to the page.
    focusFirstError(errors, (event?.currentTarget as HTMLFormElement | null | undefined) ?? null);
  });
}
