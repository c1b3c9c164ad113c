import { bigint, boolean, char, index, integer, pgTable, primaryKey, serial, text, uuid, varchar } from 'drizzle-orm/pg-core';
import { locations } from './locations.ts';
import { ts } from '../columns.ts';

/** Agents: only the SHA-256 of an agent's token is stored (the token is shown once). */
export const agents = pgTable(
  'agents',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 250 }).notNull(),
    description: text('description'),
    tokenHash: char('token_hash', { length: 64 }).notNull().unique(),
    status: varchar('status', { length: 20 }).notNull().default('STOPPED'),
    statusMessage: text('status_message'),
    lastContactAt: ts('last_contact_at'),
    version: varchar('version', { length: 50 }),
    hostname: varchar('hostname', { length: 255 }),
    platform: varchar('platform', { length: 100 }),
    locationId: integer('location_id').notNull().references(() => locations.id),
    /** Raised by "notify all: update version"; the agent re-fetches config and pack when it changes. */
    configVersion: integer('config_version').notNull().default(0),
    /** The configVersion the agent last fetched its config at. */
    configVersionSeen: integer('config_version_seen').notNull().default(0),
    builtin: varchar('builtin', { length: 20 }),
    /** The agent API version it last spoke (contracts agent-api.ts); older than the server takes: update required. */
    apiVersion: integer('api_version'),
    /** No update is offered to this agent (issue 44); AGENT_UPDATES_PAUSED pauses every agent. */
    updatesPaused: boolean('updates_paused').notNull().default(false),
    /** The last release the agent refused to install, and why (a bad signature or checksum, a file that did not start). */
    updateRefusedVersion: varchar('update_refused_version', { length: 50 }),
    updateRefusedReason: text('update_refused_reason'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('agents_location').on(t.locationId)],
);

/** One polling run of an agent, and the event-log record that stands for it. */
export const agentRuns = pgTable(
  'agent_runs',
  {
    runId: uuid('run_id').notNull(),
    agentId: integer('agent_id').notNull().references(() => agents.id, { onDelete: 'cascade' }),
    logId: bigint('log_id', { mode: 'number' }).notNull(),
    startedAt: ts('started_at').notNull(),
    finishedAt: ts('finished_at'),
  },
  // Partitioned by month on started_at (migration 0038): the key holds it.
  (t) => [primaryKey({ name: 'agent_runs_pkey', columns: [t.runId, t.startedAt] }), index('agent_runs_agent_started').on(t.agentId, t.startedAt)],
);

/** The latest outcome of each device of an agent's ranges (issue 44; migration 0049): no history, one row per address. */
export const agentDeviceStatus = pgTable(
  'agent_device_status',
  {
    agentId: integer('agent_id').notNull().references(() => agents.id, { onDelete: 'cascade' }),
    ip: varchar('ip', { length: 15 }).notNull(),
    rangeId: integer('range_id'),
    lastOkAt: ts('last_ok_at'),
    lastOkMs: integer('last_ok_ms'),
    lastFailureAt: ts('last_failure_at'),
    lastFailureReason: varchar('last_failure_reason', { length: 20 }),
    lastFailureMs: integer('last_failure_ms'),
    /** Runs in a row that did not read it; 0 after a good read. */
    failuresInRow: integer('failures_in_row').notNull().default(0),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'agent_device_status_pkey', columns: [t.agentId, t.ip] })],
);
