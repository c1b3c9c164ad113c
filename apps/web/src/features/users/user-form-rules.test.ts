import { describe, expect, it } from 'vitest';
import { formFieldOf, formPermissions, hasCommonLocation, isNewUserId, locationChange } from './user-form-rules.ts';

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
});
