/** The network-ranges module's public surface: all that other modules, jobs and plugins may use of it (issue 40). */
export { NetworkRangesService } from './network-ranges.service.ts';
