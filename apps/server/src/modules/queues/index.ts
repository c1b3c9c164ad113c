/** The queues module's public surface: all that other modules, jobs and plugins may use of it (issue 40). */
export { QueueJobsIngest } from './queue-jobs.service.ts';
export { QueuesService } from './queues.service.ts';
