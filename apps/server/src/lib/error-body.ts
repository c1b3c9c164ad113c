import type { ErrorBody } from '@pagewatch/contracts/errors';
import { hasMessage, translate, type Lang } from '../i18n/messages.ts';
import type { FieldError } from './app-error.ts';

/** A zod issue's message is an i18n key when we wrote it, otherwise pick one by its code. */
export function issueKey(message: string, keyword: string, params: Record<string, unknown>): { key: string; params: Record<string, unknown> } {
  if (hasMessage(message)) return { key: message, params };
  if (keyword === 'too_small') return { key: params.minimum === 1 && params.origin === 'string' ? 'general.mandatory' : 'general.tooShort', params };
  if (keyword === 'too_big') return { key: 'general.tooLong', params };
  if (keyword === 'invalid_type' && params.input === undefined) return { key: 'general.mandatory', params };
  if (keyword === 'invalid_type') return { key: 'general.badType', params };
  return { key: 'general.badValue', params };
}

type Issue = { path: PropertyKey[]; code: string; message: string };

/** Zod issues as field errors, their paths under `prefix` (e.g. "readings.3."). */
export function issueFields(issues: readonly Issue[], prefix = ''): FieldError[] {
  return issues.map(({ path, code, message, ...rest }) => ({ field: `${prefix}${path.map(String).join('.')}`, ...issueKey(message, code, rest) }));
}

/** The body of every error answer, in the caller's language. */
export function errorBody(lang: Lang, code: string, key: string, params: Record<string, unknown>, fields: FieldError[]): ErrorBody {
  const details = fields.map((f) => ({ field: f.field, message: translate(lang, f.key, f.params) }));
  const message = details.length ? `${translate(lang, key, params)}: ${details.map((d) => `${d.field}: ${d.message}`).join('; ')}` : translate(lang, key, params);
  return details.length ? { code, message, details } : { code, message };
}
