import { index, integer, pgTable, serial, text, varchar } from 'drizzle-orm/pg-core';
import { locations } from './locations.ts';
import { agents } from './agents.ts';
import { ts } from '../columns.ts';

/**
 * A network an agent scans: BROADCAST and NETMASK use address+mask, RANGE uses from-to.
 * SNMP v3 keys are write-only: stored here, never returned by the console API.
 */
export const networkRanges = pgTable(
  'network_ranges',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 250 }),
    type: varchar('type', { length: 20 }).notNull(),
    address: varchar('address', { length: 15 }),
    mask: varchar('mask', { length: 15 }),
    ipFrom: varchar('ip_from', { length: 15 }),
    ipTo: varchar('ip_to', { length: 15 }),
    port: integer('port').notNull().default(161),
    // Discovery requests a second, at most (PACKETS_PER_SECOND in the contract).
    packetsPerSecond: integer('packets_per_second').notNull().default(5000),
    snmpVersion: varchar('snmp_version', { length: 2 }).notNull().default('2c'),
    community: text('community'),
    v3User: varchar('v3_user', { length: 255 }),
    v3Level: varchar('v3_level', { length: 20 }),
    v3AuthProtocol: varchar('v3_auth_protocol', { length: 10 }),
    v3AuthKey: text('v3_auth_key'),
    v3PrivProtocol: varchar('v3_priv_protocol', { length: 10 }),
    v3PrivKey: text('v3_priv_key'),
    /** The own locations of whoever set the stored secrets (lib/secret-reach.ts): who may hand them to an agent's token. */
    secretReach: integer('secret_reach').array(),
    agentId: integer('agent_id').references(() => agents.id, { onDelete: 'set null' }),
    locationId: integer('location_id').notNull().references(() => locations.id),
    comment: text('comment'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('network_ranges_agent').on(t.agentId), index('network_ranges_location').on(t.locationId)],
);
