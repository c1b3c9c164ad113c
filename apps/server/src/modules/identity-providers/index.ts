/** The identity providers module's public surface: all that other modules, jobs and plugins may use of it (issue 55). */
export { IdentityProvidersService } from './identity-providers.service.ts';
export { SsoService } from './sso.service.ts';
/** For the directory sync job: spent OpenID tickets. */
export { pruneTickets as pruneSsoTickets } from './identity-providers.repository.ts';
