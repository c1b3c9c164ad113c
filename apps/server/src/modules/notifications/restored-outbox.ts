import type { Db } from '../../db/client.ts';
import { EventLog } from '../event-logs/index.ts';
import { giveUpPending } from './outbox.repository.ts';

/** The reason a restored copy's queued messages carry (`last_error`). */
export const RESTORED_FROM_BACKUP = 'not sent: restored from a backup';

/**
 * Run by `npm run restore` on the database it restored: the e-mails and channel messages queued
 * when the backup was taken were, most likely, sent by the original server moments after, so the
 * copy does not send them again (to suppliers, customers, webhooks). Each is given up untried and
 * named in the event log, so that an operator who knows the original never sent it can send it
 * anew. What the copy queues from then on is sent as usual. Returns how many were held.
 */
export async function holdRestoredOutbox(db: Db): Promise<number> {
  const log = new EventLog(db, null);
  await log.init();
  return db.transaction(async (tx) => {
    const held = await giveUpPending(tx, RESTORED_FROM_BACKUP);
    if (held.length) {
      await log.writeMany(
        held.map((m) => ({
          group: 'NOTIFICATIONS' as const,
          level: 'W' as const,
          messageCode: m.channelId === null ? 'notification.notSentRestored' : 'channel.notSentRestored',
          params: { to: m.toEmail, subject: m.subject },
          locationId: m.locationId,
        })),
        tx,
      );
    }
    return held.length;
  });
}
