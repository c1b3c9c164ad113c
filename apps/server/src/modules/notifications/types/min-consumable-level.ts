import { NOTIFICATION_TYPES } from '@pagewatch/contracts/notifications';
import type { Db } from '../../../db/client.ts';
import * as repo from '../dispatch.repository.ts';
import { made, newOutgoing, resolved, stillOpen, writeOutgoing, type DispatchKit } from '../dispatch-kit.ts';
import { fireDigest, type TypeHandler } from './handler.ts';

/** A supply fell under a notification's threshold: told by `dispatchLevels` below, digested on a schedule. */
export const minConsumableLevel: TypeHandler = { fire: fireDigest };

/**
 * Supplies that crossed a MIN_CONSUMABLE_LEVEL threshold since the last look, those back above
 * it ("resolved") and those still low that nobody acknowledged for `repeat` hours (0: never).
 * Returns how many messages or digest items were made.
 */
export async function dispatchLevels(kit: DispatchKit, tx: Db, repeat: number, now: Date): Promise<number> {
  const typeId = NOTIFICATION_TYPES.MIN_CONSUMABLE_LEVEL.id;
  const clearings = await repo.levelClearings(tx);
  const crossings = await repo.levelCrossings(tx, typeId);
  const repeats = repeat > 0 ? await repo.levelRepeats(tx, repeat, now) : [];
  if (!crossings.length && !clearings.length && !repeats.length) return 0;
  const notifications = await repo.activeNotifications(tx, [typeId]);
  const ctx = await kit.context(tx, notifications);
  const byId = new Map(notifications.map((n) => [n.id, n]));
  const out = newOutgoing();
  for (const c of clearings) {
    const n = byId.get(c.notificationId);
    if (!n) continue;
    const facts = { ...kit.facts(c, c.clearedAt), partType: c.partName ?? c.partCode, partModelCode: c.partModelCode, partSerialNumber: c.partSerialNumber, partLevel: `${c.level}%` };
    kit.address(ctx, n, facts, out, resolved(c.clearedAt.getTime() - c.raisedAt.getTime()));
  }
  const levelFacts = (c: repo.LevelAlert) => ({ ...kit.facts(c, now), partType: c.partName ?? c.partCode, partModelCode: c.partModelCode, partSerialNumber: c.partSerialNumber, partLevel: `${c.level}%`, partRunsOut: c.runsOutOn ? { day: c.runsOutOn } : null });
  for (const c of crossings) {
    const n = byId.get(c.notificationId);
    if (n) kit.address(ctx, n, levelFacts(c), out);
  }
  // Still low, nobody acknowledged it (ALERT_REPEAT_HOURS): told again by each notification that told it.
  for (const c of repeats) {
    const n = byId.get(c.notificationId);
    if (n) kit.address(ctx, n, levelFacts(c), out, stillOpen(now.getTime() - c.raisedAt.getTime()));
  }
  await writeOutgoing(tx, out);
  return made(out);
}
