/** The home module's public surface: all that other modules, jobs and plugins may use of it (issue 40). */
export { HomeService } from './home.service.ts';
