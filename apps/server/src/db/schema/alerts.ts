import { bigserial, boolean, index, integer, pgTable, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { ts } from '../columns.ts';
import { devices } from './devices.ts';
import { agents } from './agents.ts';
import { users } from './users.ts';

/**
 * A condition from its start to its end (issue 42): a device in error or not available (issue 54), a supply under its
 * threshold, an agent silent for too long. At most one open alert per subject and kind; the
 * `*_mailed` flags are what the dispatcher has yet to tell (start, then resolve).
 */
export const alerts = pgTable(
  'alerts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: varchar('kind', { length: 20 }).notNull(),
    deviceId: integer('device_id').references(() => devices.id, { onDelete: 'cascade' }),
    supplyIndex: integer('supply_index'),
    agentId: integer('agent_id').references(() => agents.id, { onDelete: 'cascade' }),
    startedAt: ts('started_at').notNull(),
    resolvedAt: ts('resolved_at'),
    acknowledgedBy: integer('acknowledged_by').references(() => users.id, { onDelete: 'set null' }),
    acknowledgedAt: ts('acknowledged_at'),
    lastNotifiedAt: ts('last_notified_at'),
    startMailed: boolean('start_mailed').notNull().default(false),
    resolveMailed: boolean('resolve_mailed').notNull().default(false),
  },
  (t) => [
    uniqueIndex('alerts_open_device').on(t.deviceId).where(sql`${t.kind} = 'DEVICE_ERROR' AND ${t.resolvedAt} IS NULL`),
    uniqueIndex('alerts_open_offline').on(t.deviceId).where(sql`${t.kind} = 'DEVICE_OFFLINE' AND ${t.resolvedAt} IS NULL`),
    uniqueIndex('alerts_open_supply').on(t.deviceId, t.supplyIndex).where(sql`${t.kind} = 'SUPPLY_LOW' AND ${t.resolvedAt} IS NULL`),
    uniqueIndex('alerts_open_agent').on(t.agentId).where(sql`${t.kind} = 'AGENT_SILENT' AND ${t.resolvedAt} IS NULL`),
    index('alerts_to_mail').on(t.id).where(sql`NOT ${t.startMailed} OR (${t.resolvedAt} IS NOT NULL AND NOT ${t.resolveMailed})`),
    index('alerts_open').on(t.startedAt).where(sql`${t.resolvedAt} IS NULL`),
    // The dispatcher asks of each device event whether its device's error was open before it.
    index('alerts_device').on(t.deviceId, t.startedAt),
  ],
);
