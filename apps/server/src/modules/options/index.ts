/** The options module's public surface: all that other modules, jobs and plugins may use of it (issue 40). */
export { VERSION } from './version.ts';
