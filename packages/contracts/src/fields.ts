import { z } from 'zod';

/**
 * Building blocks every request schema uses, so that each value has a limit (security.md,
 * invariant 8): text without control characters and with a length limit, ids within PostgreSQL's
 * integer. A value past a limit is a 400 that names it, never a 500 from the database.
 */
export const INT_MAX = 2_147_483_647;

/** C0 controls but tab, line feed and carriage return, and DEL; NUL above all (PostgreSQL text refuses it). */
export const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
/** Every C0 control and DEL: what a single line (a value read from a printer) never holds. */
export const LINE_CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
/** Half a UTF-16 surrogate pair: not text; on its way to the database it would turn into U+FFFD. */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The first `max` UTF-16 units of `s`, one fewer when the last would be half a surrogate pair (an emoji cut in two). */
export const cutText = (s: string, max: number): string => (s.length <= max ? s : s.slice(0, /[\uD800-\uDBFF]/.test(s[max - 1] ?? '') ? max - 1 : max));

/**
 * Text of at most `max` characters, well-formed and without control characters (`line`: no tab
 * or line break either); chain `.trim()`, `.min()`, `.regex()` as usual.
 */
export const text = (max: number, opts: { line?: boolean } = {}) => {
  const controls = opts.line ? LINE_CONTROL_CHARS : CONTROL_CHARS;
  return z
    .string()
    .max(max, 'general.maxLength')
    .refine((s) => !controls.test(s), 'general.controlChars')
    .refine((s) => !LONE_SURROGATE.test(s), 'general.badValue');
};

/** A row id: 1 to 2^31-1. */
export const id = z.number('general.badValue').int('general.badValue').min(1, 'general.badValue').max(INT_MAX, 'general.badValue');
/** A reference to a row, `{ id }`. */
export const idRef = z.object({ id }, 'general.mandatory');
/** A row as an answer names it in another: its id and name (an agent, a notification's location). */
export const namedRefSchema = z.object({ id: z.number().int(), name: z.string() });
/** A coded row as an answer names it in another: a location, a role, a dictionary item, an event group. */
export const codedRefSchema = z.object({ id: z.number().int(), code: z.string(), name: z.string() });
/** Any other integer stored in an integer column. */
export const int32 = z.number().int().min(-INT_MAX - 1).max(INT_MAX);
/** A row id written as text, in a path or a query string: 1 to 2^31-1. */
export const idParam = z.coerce.number('general.badValue').int('general.badValue').min(1, 'general.badValue').max(INT_MAX, 'general.badValue');
/** `:id` in a path. */
export const idParams = z.object({ id: idParam });

/**
 * A day as YYYY-MM-DD that exists in the calendar, within the days the product keeps (from 2022,
 * spec section 9, to 2099); `badKey` and `rangeKey` are the messages of each failure.
 */
export const keptDay = (badKey: string, rangeKey: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, badKey)
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), badKey)
    .refine((v) => v >= '2022-01-01' && v <= '2099-12-31', rangeKey);
