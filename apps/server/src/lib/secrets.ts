import { AppError } from './app-error.ts';

/** A stored secret and whether the request keeps it: neither gives it anew nor clears it. */
export type StoredSecret = { field: string; key: string; kept: boolean };

/**
 * Write-only secrets go where their owner sent them (security.md, invariant 7): whoever may edit
 * an object without knowing its secrets must not send them somewhere else. When the destination
 * changes, each kept secret is refused (SECRET_REQUIRED, 422, naming the field): given again or
 * cleared, it may move.
 */
export function requireSecretsOnMove(moved: boolean, secrets: StoredSecret[]) {
  if (!moved) return;
  const fields = secrets.filter((s) => s.kept).map(({ field, key }) => ({ field, key }));
  if (fields.length) throw new AppError('SECRET_REQUIRED', { fields });
}
