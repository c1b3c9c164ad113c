import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, serial, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { ts } from '../columns.ts';
import { locations } from './locations.ts';
import { roles } from './roles.ts';
import { identityProviders } from './identity-providers.ts';
import type { Lang } from '../../i18n/messages.ts';

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    login: varchar('login', { length: 128 }).notNull(),
    email: varchar('email', { length: 256 }).notNull(),
    passwordHash: text('password_hash').notNull(),
    activeFlag: boolean('active_flag').notNull().default(true),
    isSystem: boolean('is_system').notNull().default(false),
    systemNotificationRecipient: boolean('system_notification_recipient').notNull().default(false),
    lastName: varchar('last_name', { length: 128 }).notNull(),
    firstName: varchar('first_name', { length: 128 }),
    middleName: varchar('middle_name', { length: 128 }),
    /** The language of the user's e-mails: their browser's at their last sign-in; null: the server's. */
    language: varchar('language', { length: 2 }).$type<Lang>(),
    /** The provider the user signs in with (issue 55); null: a local account, with its own password. */
    identityProviderId: integer('identity_provider_id').references(() => identityProviders.id, { onDelete: 'set null' }),
    /** Who the user is at that provider: the directory DN, or the OpenID subject. */
    externalId: varchar('external_id', { length: 512 }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_login_lower').on(sql`lower(${t.login})`), uniqueIndex('users_external').on(t.identityProviderId, t.externalId)],
);

export const userRoles = pgTable(
  'user_roles',
  {
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    roleId: integer('role_id').notNull().references(() => roles.id),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] })],
);

export const userLocations = pgTable(
  'user_locations',
  {
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    locationId: integer('location_id').notNull().references(() => locations.id),
  },
  (t) => [primaryKey({ columns: [t.userId, t.locationId] }), index('user_locations_location').on(t.locationId)],
);
