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

export type LocationChange = { added: LocationRef[]; removed: LocationRef[]; notKept: LocationRef[] };

/**
 * The locations that differ after a save: added and removed against those the user had (for a
 * new user pass the saved ones, so only what the server changed shows), and chosen ones the server did not keep because a chosen parent already
 * covers them (only key locations are stored). Null when nothing differs.
 */
export function locationChange(before: LocationRef[], chosen: LocationRef[], after: LocationRef[]): LocationChange | null {
  const had = new Set(before.map((l) => l.id));
  const kept = new Set(after.map((l) => l.id));
  const change = {
    added: after.filter((l) => !had.has(l.id)),
    removed: before.filter((l) => !kept.has(l.id)),
    notKept: chosen.filter((l) => !kept.has(l.id) && !had.has(l.id)),
  };
  return change.added.length || change.removed.length || change.notKept.length ? change : null;
}

/** The form field a server field error belongs to. */
export function formFieldOf(apiField: string): string {
  const map: Record<string, string> = { passwordHash: 'password', locations: 'locationIds', grants: 'roleIds' };
  return map[apiField.split('.')[0]] ?? apiField.split('.')[0];
}

type Validate<V, E> = (values: V) => Record<string, E>;

/**
 * Cloud mode: the login is the e-mail, so the values are checked with the e-mail as login and
 * a login error (an e-mail too long to be a login) is shown under the e-mail, the field there is.
 */
export function withLoginFromEmail<V extends { login: string; email: string }, E>(validate: Validate<V, E>, cloud: boolean): Validate<V, E> {
  if (!cloud) return validate;
  return (values) => {
    const { login, ...errors } = validate({ ...values, login: values.email });
    return login && !errors.email ? { ...errors, email: login } : (errors as Record<string, E>);
  };
}
