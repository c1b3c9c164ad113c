import type { Db } from '../../db/client.ts';
import type { Lang } from '../../i18n/messages.ts';
import type { OutboxAttachment } from '../../db/schema/notifications.ts';
import { settingsOf, suggestions } from './supply-orders.repository.ts';
import { digestPart } from './supply-orders.mail.ts';
import './supply-orders.messages.ts';

export type DigestPart = { locationId: number; locationName: string; html: string; attachment: OutboxAttachment };

/**
 * The daily "supplies to order" digest (notification type SUPPLIES_TO_ORDER) of the given
 * locations in `lang`: a part per location that has something to order, none for the rest.
 */
export async function suppliesToOrderDigest(db: Db, locationIds: number[], lang: Lang): Promise<DigestPart[]> {
  if (!locationIds.length) return [];
  const lines = await suggestions(db, locationIds);
  if (!lines.length) return [];
  const horizon = new Map((await settingsOf(db, [...new Set(lines.map((l) => l.locationId))])).map((s) => [s.locationId, s.leadDays + s.marginDays]));
  const byLocation = new Map<number, typeof lines>();
  for (const l of lines) byLocation.set(l.locationId, [...(byLocation.get(l.locationId) ?? []), l]);
  return [...byLocation].map(([locationId, mine]) => ({ locationId, locationName: mine[0]!.locationName, ...digestPart(mine, horizon.get(locationId) ?? 0, lang) }));
}
