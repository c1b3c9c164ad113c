import { describe, expect, it } from 'vitest';
import { userFormSchema } from '@pagewatch/contracts/users';
import { formFieldOf, formPermissions, hasCommonLocation, isNewUserId, locationChange, withLoginFromEmail } from './user-form-rules.ts';

const loc = (id: number) => ({ id, code: `L${id}`, name: `Location ${id}` });
const scope = new Set([1, 2]);

describe('user form rules', () => {
  it('treats -1, any negative id, none or garbage as a new user', () => {
    expect(['-1', '-7', undefined, '', 'new'].map(isNewUserId)).toEqual([true, true, true, true, true]);
    expect(['5', '0'].map(isNewUserId)).toEqual([false, false]);
  });

  it('finds a common location within the scope', () => {
    expect(hasCommonLocation({ locations: [loc(3), loc(2)] }, scope)).toBe(true);
    expect(hasCommonLocation({ locations: [loc(3)] }, scope)).toBe(false);
    expect(hasCommonLocation(null, scope)).toBe(false);
  });

  it('disables Save without a common location, Delete also for oneself and a new user', () => {
    const base = { isNew: false, currentUserId: 1, scope, canEdit: true };
    expect(formPermissions({ ...base, user: { id: 9, locations: [loc(1)] } })).toEqual({ canSave: true, canDelete: true, canEditRoles: true });
    expect(formPermissions({ ...base, user: { id: 9, locations: [loc(3)] } })).toEqual({ canSave: false, canDelete: false, canEditRoles: true });
    expect(formPermissions({ ...base, user: { id: 1, locations: [loc(1)] } })).toEqual({ canSave: true, canDelete: false, canEditRoles: false });
    expect(formPermissions({ ...base, isNew: true, user: null })).toEqual({ canSave: true, canDelete: false, canEditRoles: true });
    expect(formPermissions({ ...base, canEdit: false, user: { id: 9, locations: [loc(1)] } })).toEqual({ canSave: false, canDelete: false, canEditRoles: false });
  });

  it('lists the locations that differ after a save', () => {
    expect(locationChange([loc(1)], [loc(1)], [loc(1)])).toBeNull();
    // Edited: 1 taken away, 3 added.
    expect(locationChange([loc(1), loc(2)], [loc(2), loc(3)], [loc(2), loc(3)])).toEqual({ added: [loc(3)], removed: [loc(1)], notKept: [] });
    // A new user (compared with what was saved): only what the server changed shows.
    expect(locationChange([loc(1)], [loc(1), loc(4)], [loc(1)])).toEqual({ added: [], removed: [], notKept: [loc(4)] });
    expect(locationChange([loc(1)], [loc(1)], [loc(1)])).toBeNull();
    // A child added next to its parent: the user's locations stay, the choice is not kept.
    expect(locationChange([loc(1)], [loc(1), loc(4)], [loc(1)])).toEqual({ added: [], removed: [], notKept: [loc(4)] });
  });

  it('maps API fields to form fields', () => {
    expect(['passwordHash', 'locations', 'grants', 'login', 'locations.0.id'].map(formFieldOf)).toEqual(['password', 'locationIds', 'roleIds', 'login', 'locationIds']);
  });

  it('in cloud mode checks the e-mail as the login and shows a login error under the e-mail', () => {
    const schema = userFormSchema(false);
    const validate = (v: Record<string, unknown>) => {
      const r = schema.safeParse(v);
      // The first message of each field, as the form shows it.
      return Object.fromEntries((r.error?.issues ?? []).reverse().map((i) => [String(i.path[0]), i.message]));
    };
    const values = { login: '', email: 'anna.k@acme.example.com', password: '', passwordConfirmation: '', lastName: 'K', firstName: '', middleName: '', locationIds: ['1'] };
    expect(withLoginFromEmail(validate, false)(values)).toEqual({ login: 'general.mandatory' });
    expect(withLoginFromEmail(validate, true)(values)).toEqual({});
    const long = { ...values, email: `${'a'.repeat(130)}@acme.example.com` };
    expect(withLoginFromEmail(validate, true)(long)).toEqual({ email: 'general.badLogin' });
  });
});
