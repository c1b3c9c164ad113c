/** The roles module's public surface: all that other modules, jobs and plugins may use of it (issue 40). */
/** Roles are seeded, not edited: the module is its published queries. */
export { allRoles, existingRoleIds, roleIdsOf, rolesOfUsers } from './roles.repository.ts';
