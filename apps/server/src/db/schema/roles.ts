import { integer, pgTable, primaryKey, varchar } from 'drizzle-orm/pg-core';
import { codedColumns } from '../columns.ts';

export const roles = pgTable('roles', {
  ...codedColumns(),
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
