import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { passwordRestoreTokens, sessions } from '../db/schema/auth.ts';
import { eventLogs } from '../db/schema/event-logs.ts';
import { users } from '../db/schema/users.ts';
import { ingestedReadings } from '../db/schema/devices.ts';
import { notificationMessages } from '../db/schema/notifications.ts';
import { testApp } from '../test/test-app.ts';

/** The pruning jobs delete only what is past its use, in batches (size 2 here: several per run). */
const t = testApp({ signIn: false });
let userId: number;
beforeAll(async () => {
  t.ctx.jobs.tuning.pruneBatchSize = 2;
  [{ id: userId }] = await t.ctx.db.select({ id: users.id }).from(users).limit(1);
});

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY);
const hash = () => randomUUID().replaceAll('-', '').padEnd(64, '0');
const runMessage = async (name: string) => {
  const runId = await t.ctx.jobs.runNow(name);
  const [run] = await t.ctx.db.select({ message: eventLogs.message }).from(eventLogs).where(eq(eventLogs.id, runId!));
  return run.message;
};

describe('pruning jobs', () => {
  it('session-pruning deletes sessions ended (expired or revoked) more than a week ago', async () => {
    const rows = (at: { expiresAt: Date; revokedAt?: Date }[]) =>
      t.ctx.db.insert(sessions).values(at.map((s) => ({ userId, tokenHash: hash(), ...s }))).returning({ id: sessions.id });
    const old = await rows([{ expiresAt: ago(10) }, { expiresAt: ago(8) }, { expiresAt: ago(-20), revokedAt: ago(9) }]);
    const fresh = await rows([{ expiresAt: ago(1) }, { expiresAt: ago(-1) }, { expiresAt: ago(-20), revokedAt: ago(2) }]);
    expect(await runMessage('session-pruning')).toBe('Ended sessions clean-up: deleted 3 ended sessions');
    const left = await t.ctx.db.select({ id: sessions.id }).from(sessions).where(inArray(sessions.id, [...old, ...fresh].map((r) => r.id)));
    expect(left.map((r) => r.id).sort()).toEqual(fresh.map((r) => r.id).sort());
  });

  it('restore-token-pruning deletes used and expired tokens and keeps the valid ones', async () => {
    const old = [
      { userId, tokenHash: hash(), expiresAt: ago(-0.01), usedAt: ago(0.001) },
      { userId, tokenHash: hash(), expiresAt: ago(0.01) },
      { userId, tokenHash: hash(), expiresAt: ago(30), usedAt: ago(30) },
    ];
    const fresh = [{ userId, tokenHash: hash(), expiresAt: ago(-0.01) }];
    await t.ctx.db.insert(passwordRestoreTokens).values([...old, ...fresh]);
    expect(await runMessage('restore-token-pruning')).toBe('Password restore tokens clean-up: deleted 3 used or expired tokens');
    const all = [...old, ...fresh].map((r) => r.tokenHash);
    const left = await t.ctx.db.select({ h: passwordRestoreTokens.tokenHash }).from(passwordRestoreTokens).where(inArray(passwordRestoreTokens.tokenHash, all));
    expect(left.map((r) => r.h)).toEqual(fresh.map((r) => r.tokenHash));
  });

  it('ingested-readings-pruning forgets reading ids received more than 30 days ago', async () => {
    const rows = (days: number[]) => days.map((d) => ({ readingId: randomUUID(), receivedAt: ago(d) }));
    const old = rows([31, 40, 400]);
    const fresh = rows([0, 29]);
    await t.ctx.db.insert(ingestedReadings).values([...old, ...fresh]);
    expect(await runMessage('ingested-readings-pruning')).toBe('Reading ids clean-up: deleted 3 reading ids');
    const left = await t.ctx.db.select({ id: ingestedReadings.readingId }).from(ingestedReadings).where(inArray(ingestedReadings.readingId, [...old, ...fresh].map((r) => r.readingId)));
    expect(left.map((r) => r.id).sort()).toEqual(fresh.map((r) => r.readingId).sort());
  });

  it('outbox-pruning deletes e-mails sent over a month ago and given up over a quarter ago, never one still waiting', async () => {
    const row = (over: Partial<typeof notificationMessages.$inferInsert>) => ({ messageId: `<${randomUUID()}@pagewatch>`, toEmail: 'a@example.com', subject: 's', html: 'h', ...over });
    const old = [row({ sentAt: ago(31) }), row({ sentAt: ago(400) }), row({ failedAt: ago(91) })];
    const fresh = [row({ sentAt: ago(29) }), row({ failedAt: ago(60) }), row({ createdAt: ago(200), attempts: 3 })];
    const ids = (await t.ctx.db.insert(notificationMessages).values([...old, ...fresh]).returning({ id: notificationMessages.id })).map((r) => r.id);
    expect(await runMessage('outbox-pruning')).toBe('E-mail outbox clean-up: deleted 3 sent or given-up e-mails');
    const left = await t.ctx.db.select({ id: notificationMessages.id }).from(notificationMessages).where(inArray(notificationMessages.id, ids));
    expect(left.map((r) => r.id).sort()).toEqual(ids.slice(3).sort());
  });
});
