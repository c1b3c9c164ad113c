/** The notifications module's public surface: all that other modules, jobs and plugins may use of it (issue 40). */
export { NotificationsService } from './notifications.service.ts';
/** For the pruning job. */
export { pruneMessages } from './outbox.repository.ts';
