/** The licenses module's public surface: all that other modules, jobs and plugins may use of it (issue 40). */
export { LicensesService } from './licenses.service.ts';
