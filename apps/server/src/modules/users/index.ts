/** The users module's public surface: all that other modules, jobs and plugins may use of it (issue 40). */
export { UsersService } from './users.service.ts';
/** For auth: the signed-in user's view, and ending a user's sessions (a restored password). */
export { meView, revokeUserSessions } from './users.repository.ts';
/** For identity providers (issue 55): a signed-in user's roles and locations, as their groups give them. */
export { setRoles as setUserRoles, setLocations as setUserLocations } from './users.repository.ts';
