import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

/**
 * The contracts' schema as a form's validation: form field → i18n key of its first issue. The
 * schemas' own messages are keys (`general.mandatory`); for zod's built-in English ones `keyOf`
 * names the key. `known` are errors the form found itself (a stored secret needed again): they win.
 */
export function schemaFieldErrors(
  schema: z.ZodType,
  input: unknown,
  opts: { fieldOf: (field: string) => string; keyOf: (issue: Issue, field: string) => string; known?: Record<string, string> },
): Record<string, string> {
  const errors: Record<string, string> = { ...opts.known };
  const parsed = schema.safeParse(input);
  for (const issue of parsed.error?.issues ?? []) {
    const field = opts.fieldOf(String(issue.path[0] ?? ''));
    errors[field] ??= opts.keyOf(issue, field);
  }
  return errors;
}
