/** The notifications module's public surface: all that other modules, jobs and plugins may use of it (issue 40). */
export { NotificationsService } from './notifications.service.ts';
/** For the pruning job. */
export { pruneMessages } from './outbox.repository.ts';
/**
 * Channels besides e-mail (issue 42), for other modules (e.g. supply orders): `enabledChannels`
 * lists them (optionally of one kind), `enqueueChannelMessage` puts a message for one in the
 * outbox in the caller's transaction (sent after the commit, retried with back-off like a mail).
 */
export { enqueueChannelMessage } from './channel-outbox.ts';
export { enabledChannels } from './channels.repository.ts';
/** For `npm run restore`: a restored copy does not send the backup's queue again. */
export { holdRestoredOutbox } from './restored-outbox.ts';
