import type { LocationRef, User } from '@pagewatch/contracts/users';

/**
 * The user form's rules of spec sections 4 and 6 as plain functions, so they are tested
 * without a browser.
 */

/** An id below 0 (or none, or not a number) opens the form for a new user. */
export function isNewUserId(id: string | undefined): boolean {
  if (id === undefined || id === '') return true;
  const n = Number(id);
  return !Number.isFinite(n) || n < 0;
}

/** True when the user has a location the current user may see (their locations and below). */
export function hasCommonLocation(user: Pick<User, 'locations'> | null, scope: ReadonlySet<number>): boolean {
  return Boolean(user?.locations.some((l) => scope.has(l.id)));
}

export type FormPermissions = { canSave: boolean; canDelete: boolean; canEditRoles: boolean };

/**
 * Save needs a common location (a new user gets theirs in the form); Delete also needs a saved
 * user who is not oneself; nobody changes their own roles. Without MNU_USERS.EDIT the form is
 * read-only.
 */
export function formPermissions(opts: {
  isNew: boolean;
  user: Pick<User, 'id' | 'locations'> | null;
  currentUserId: number;
  scope: ReadonlySet<number>;
  canEdit: boolean;
}): FormPermissions {
  const { isNew, user, currentUserId, scope, canEdit } = opts;
  const common = isNew || hasCommonLocation(user, scope);
  const self = !isNew && user?.id === currentUserId;
  return {
    canSave: canEdit && common,
    canDelete: canEdit && common && !isNew && !self,
    canEditRoles: canEdit && !self,
  };
}

export type LocationChange = { added: LocationRef[]; removed: LocationRef[] };

/**
 * The locations that differ after a save: against those the user had (a new user: those chosen,
 * so only what the server changed, e.g. a child dropped for its parent, shows).
 */
export function locationChange(before: LocationRef[], after: LocationRef[]): LocationChange | null {
  const b = new Set(before.map((l) => l.id));
  const a = new Set(after.map((l) => l.id));
  const added = after.filter((l) => !b.has(l.id));
  const removed = before.filter((l) => !a.has(l.id));
  return added.length || removed.length ? { added, removed } : null;
}

/** The form field a server field error belongs to. */
export function formFieldOf(apiField: string): string {
  const map: Record<string, string> = { passwordHash: 'password', locations: 'locationIds', grants: 'roleIds' };
  return map[apiField.split('.')[0]] ?? apiField.split('.')[0];
}
