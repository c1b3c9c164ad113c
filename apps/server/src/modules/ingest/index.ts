/** The ingest module's public surface: all that other modules, jobs and plugins may use of it (issue 40). */
export { IngestService } from './ingest.service.ts';
/** For the pruning job. */
export { pruneIngestedReadings } from './ingest.repository.ts';
