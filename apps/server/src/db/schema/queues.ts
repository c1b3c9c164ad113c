import { bigserial, boolean, index, integer, pgTable, primaryKey, serial, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { agents } from './agents.ts';
import { devices } from './devices.ts';
import { ts } from '../columns.ts';

/**
 * A print queue an agent reads (spec section 3, Queue). Its location is its agent's. The
 * password and token are write-only: stored here for the agent, never returned to the console.
 * `lastJobId` is what has been read; a reset clears it and raises `stateVersion`.
 */
export const queues = pgTable(
  'queues',
  {
    id: serial('id').primaryKey(),
    type: varchar('type', { length: 20 }).notNull(),
    agentId: integer('agent_id').notNull().references(() => agents.id, { onDelete: 'cascade' }),
    host: varchar('host', { length: 253 }).notNull(),
    port: integer('port').notNull(),
    url: varchar('url', { length: 1000 }),
    username: varchar('username', { length: 255 }),
    password: text('password'),
    token: text('token'),
    /** The own locations of whoever set the password and token (lib/secret-reach.ts). */
    secretReach: integer('secret_reach').array(),
    status: varchar('status', { length: 10 }).notNull().default('NEW'),
    statusMessage: varchar('status_message', { length: 2000 }),
    lastReadAt: ts('last_read_at'),
    lastJobId: integer('last_job_id'),
    stateVersion: integer('state_version').notNull().default(0),
    printerAddress: varchar('printer_address', { length: 253 }),
    deviceId: integer('device_id').references(() => devices.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('queues_agent').on(t.agentId)],
);

/**
 * A completed job of a queue (spec section 3, Queue job): one row per queue and external job
 * id, so a job sent twice (spool, reset) is kept once.
 */
export const queueJobs = pgTable(
  'queue_jobs',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    queueId: integer('queue_id').notNull().references(() => queues.id, { onDelete: 'cascade' }),
    externalJobId: integer('external_job_id').notNull(),
    deviceId: integer('device_id').references(() => devices.id, { onDelete: 'set null' }),
    name: varchar('name', { length: 255 }),
    createdAt: ts('created_at'),
    completedAt: ts('completed_at').notNull(),
    username: varchar('username', { length: 255 }).notNull(),
    clientMachine: varchar('client_machine', { length: 255 }),
    printedPageCount: integer('printed_page_count').notNull(),
    colorPageCount: integer('color_page_count'),
    sizeKb: integer('size_kb'),
    paperSize: varchar('paper_size', { length: 100 }),
    duplex: boolean('duplex'),
  },
  // Partitioned by month on completed_at (migration 0038): the keys hold it.
  (t) => [
    primaryKey({ name: 'queue_jobs_pkey', columns: [t.id, t.completedAt] }),
    uniqueIndex('queue_jobs_key').on(t.queueId, t.externalJobId, t.completedAt),
    // The jobs tab as the list orders it (newest first, then id), and a user's jobs, or by user.
    index('queue_jobs_queue_completed').on(t.queueId, t.completedAt.desc().nullsLast(), t.id),
    index('queue_jobs_queue_user').on(t.queueId, t.username.asc().nullsFirst(), t.completedAt.desc().nullsLast(), t.id),
  ],
);
