import { ERROR_STATUS, type ErrorCode } from '@pagewatch/contracts/errors';

export type FieldError = { field: string; key: string; params?: Record<string, unknown> };

/**
 * An error meant for the caller: a code (status and default message), an optional specific
 * message key with parameters, and field errors. Messages are translated by the error handler.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly key: string;
  readonly params: Record<string, unknown>;
  readonly fields: FieldError[];
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    opts: { key?: string; params?: Record<string, unknown>; fields?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(opts.key ?? code);
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.key = opts.key ?? `errors.${code}`;
    this.params = opts.params ?? {};
    this.fields = opts.fields ?? [];
    this.headers = opts.headers ?? {};
  }
}

export const notFound = () => new AppError('NOT_FOUND');
export const forbidden = (key?: string, params?: Record<string, unknown>) => new AppError('FORBIDDEN', { key, params });
export const conflict = (key: string, params?: Record<string, unknown>) => new AppError('CONFLICT', { key, params });
export const invalid = (field: string, key: string, params?: Record<string, unknown>) =>
  new AppError('VALIDATION', { fields: [{ field, key, params }] });
