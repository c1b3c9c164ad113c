/** The reports module's public surface: all that other modules, jobs and plugins may use of it (issue 40). */
export { ReportsService, reportFileColumns, XLSX_TYPE } from './reports.service.ts';
export { isBuilt, reportRows } from './reports.repository.ts';
export { reportFileRow } from './report-files.ts';
