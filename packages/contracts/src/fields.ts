import { z } from 'zod';

/**
 * Building blocks every request schema uses, so that each value has a limit (security.md,
 * invariant 8): text without control characters and with a length limit, ids within PostgreSQL's
 * integer. A value past a limit is a 400 that names it, never a 500 from the database.
 */
export const INT_MAX = 2_147_483_647;

/** C0 controls but tab, line feed and carriage return, and DEL; NUL above all (PostgreSQL text refuses it). */
export const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Text of at most `max` characters, without control characters; chain `.trim()`, `.min()`, `.regex()` as usual. */
export const text = (max: number) => z.string().max(max, 'general.maxLength').refine((s) => !CONTROL_CHARS.test(s), 'general.controlChars');

/** A row id: 1 to 2^31-1. */
export const id = z.number('general.badValue').int('general.badValue').min(1, 'general.badValue').max(INT_MAX, 'general.badValue');
/** A reference to a row, `{ id }`. */
export const idRef = z.object({ id }, 'general.mandatory');
/** Any other integer stored in an integer column. */
export const int32 = z.number().int().min(-INT_MAX - 1).max(INT_MAX);
/** `:id` in a path. */
export const idParams = z.object({ id: z.coerce.number('general.badValue').int('general.badValue').min(1, 'general.badValue').max(INT_MAX, 'general.badValue') });
