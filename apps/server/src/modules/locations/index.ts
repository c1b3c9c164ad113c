/** The locations module's public surface: all that other modules, jobs and plugins may use of it (issue 40). */
export { LocationsService } from './locations.service.ts';
/** Published queries of the tree: a location's reference and row, the default one, and scopes. */
export { allLocationIds, defaultLocationId, descendantIds, locationById, locationCount, locationRef } from './locations.repository.ts';
