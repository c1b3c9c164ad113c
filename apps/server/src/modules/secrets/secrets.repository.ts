import { and, eq, isNotNull, ne, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { settings } from '../../db/schema/settings.ts';
import { queues } from '../../db/schema/queues.ts';
import { networkRanges } from '../../db/schema/network-ranges.ts';
import { notificationChannels } from '../../db/schema/notifications.ts';
import { identityProviders } from '../../db/schema/identity-providers.ts';

/**
 * Every column that stores a secret (issue 43), by its SQL name: the write-only settings (the
 * SMTP password), the print queues' passwords and tokens, the ranges' SNMP communities and v3
 * keys. A secret column added later belongs here, or it stays in clear.
 */
const SECRET_COLUMNS: { name: string; table: PgTable; id: PgColumn; value: PgColumn; field: string; only?: SQL }[] = [
  { name: 'settings.string_value', table: settings, id: settings.code, value: settings.stringValue, field: 'stringValue', only: eq(settings.isWriteOnly, true) },
  { name: 'queues.password', table: queues, id: queues.id, value: queues.password, field: 'password' },
  { name: 'queues.token', table: queues, id: queues.id, value: queues.token, field: 'token' },
  { name: 'network_ranges.community', table: networkRanges, id: networkRanges.id, value: networkRanges.community, field: 'community' },
  { name: 'network_ranges.v3_auth_key', table: networkRanges, id: networkRanges.id, value: networkRanges.v3AuthKey, field: 'v3AuthKey' },
  { name: 'network_ranges.v3_priv_key', table: networkRanges, id: networkRanges.id, value: networkRanges.v3PrivKey, field: 'v3PrivKey' },
  { name: 'notification_channels.secret', table: notificationChannels, id: notificationChannels.id, value: notificationChannels.secret, field: 'secret' },
  { name: 'identity_providers.secret', table: identityProviders, id: identityProviders.id, value: identityProviders.secret, field: 'secret' },
];

/** One stored secret: its column, its row and its stored (sealed or plain) value. */
export type StoredSecretValue = { column: string; id: string | number; value: string };

/** Every stored secret value, sealed or not. */
export async function storedSecretValues(db: Db): Promise<StoredSecretValue[]> {
  const out: StoredSecretValue[] = [];
  for (const c of SECRET_COLUMNS) {
    const rows = await db
      .select({ id: c.id, value: c.value })
      .from(c.table)
      .where(and(isNotNull(c.value), ne(c.value, ''), c.only));
    for (const r of rows) out.push({ column: c.name, id: r.id as string | number, value: r.value as string });
  }
  return out;
}

/**
 * Stores `value` in place of the one read, if it is still that one: two servers sealing the
 * same plain value at once seal it once, and a secret changed meanwhile is not overwritten.
 */
export async function replaceSecretValue(db: Db, read: StoredSecretValue, value: string): Promise<boolean> {
  const c = SECRET_COLUMNS.find((x) => x.name === read.column)!;
  const rows = await db
    .update(c.table)
    .set({ [c.field]: value })
    .where(and(eq(c.id, read.id), eq(c.value, read.value)))
    .returning({ id: c.id });
  return rows.length > 0;
}

/**
 * Rewrites `tables` so that no old row version keeps what they held (`VACUUM FULL`), then moves
 * the write-ahead log to a new segment and lets the old ones go, removed rather than kept for
 * reuse with their bytes. On PostgreSQL the log's steps need a superuser, and its log is the
 * database administrator's: tried only.
 */
export async function rewriteTables(db: Db, tables: Set<string>): Promise<void> {
  if (!tables.size) return;
  for (const table of tables) await db.execute(sql.raw(`VACUUM FULL "${table}"`));
  for (const step of [sql`SET wal_recycle = off`, sql`SELECT pg_switch_wal()`, sql`CHECKPOINT`, sql`CHECKPOINT`, sql`RESET wal_recycle`]) {
    await db.execute(step).catch(() => undefined);
  }
}
