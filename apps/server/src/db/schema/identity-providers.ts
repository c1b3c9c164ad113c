import { boolean, index, integer, jsonb, pgTable, serial, text, varchar } from 'drizzle-orm/pg-core';
import type { LdapSettings, OidcSettings } from '@pagewatch/contracts/identity-providers';
import { ts } from '../columns.ts';
import { locations } from './locations.ts';
import { roles } from './roles.ts';

/**
 * Identity providers (issue 55): a directory or an OpenID provider of a location. `settings` holds
 * what is not secret (LdapSettings or OidcSettings by `kind`); `secret` the bind password or the
 * client secret, sealed (modules/secrets).
 */
export const identityProviders = pgTable('identity_providers', {
  id: serial('id').primaryKey(),
  kind: varchar('kind', { length: 10 }).notNull(),
  name: varchar('name', { length: 100 }).notNull(),
  locationId: integer('location_id').notNull().references(() => locations.id),
  enabled: boolean('enabled').notNull().default(true),
  /** The directory or issuer may be at an internal address (lib/outbound), as a notification channel's `allowInternal`. */
  allowInternal: boolean('allow_internal').notNull().default(false),
  settings: jsonb('settings').$type<LdapSettings | OidcSettings>().notNull(),
  secret: text('secret'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** A directory group and the role and location its members get. */
export const identityProviderMappings = pgTable(
  'identity_provider_mappings',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => identityProviders.id, { onDelete: 'cascade' }),
    group: varchar('group_name', { length: 256 }).notNull(),
    roleId: integer('role_id').notNull().references(() => roles.id),
    locationId: integer('location_id').notNull().references(() => locations.id, { onDelete: 'cascade' }),
  },
  (t) => [index('identity_provider_mappings_provider').on(t.providerId)],
);
