/** The event-logs module's public surface: all that other modules, jobs and plugins may use of it (issue 40). */
export { EventLog, type EventGroup, type LogLevel, type RunOutcome } from './event-logs.service.ts';
export { DomainService } from './domain-service.ts';
export { part, renderLog } from './event-logs.messages.ts';
/** Published for the writers of many lines at once (agents' runs, ingest's events). */
export { eventGroupId, insertLogs, messageIn } from './event-logs.repository.ts';
