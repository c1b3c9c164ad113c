import { integer, pgTable, primaryKey, serial, varchar } from 'drizzle-orm/pg-core';

export const roles = pgTable('roles', {
  id: serial('id').primaryKey(),
  code: varchar('code', { length: 50 }).notNull().unique(),
  name: varchar('name', { length: 250 }).notNull(),
});

export const roleGrants = pgTable(
  'role_grants',
  {
    roleId: integer('role_id').notNull().references(() => roles.id, { onDelete: 'cascade' }),
    component: varchar('component', { length: 50 }).notNull(),
    operation: varchar('operation', { length: 20 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.component, t.operation] })],
);
