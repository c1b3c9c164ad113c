import { boolean, char, numeric, pgTable, text, varchar } from 'drizzle-orm/pg-core';
import { ts } from '../columns.ts';

export const settings = pgTable('settings', {
  code: varchar('code', { length: 64 }).primaryKey(),
  name: varchar('name', { length: 250 }).notNull(),
  valueType: char('value_type', { length: 1 }).notNull(),
  stringValue: text('string_value'),
  numericValue: numeric('numeric_value', { mode: 'number' }),
  dateValue: ts('date_value'),
  flagValue: boolean('flag_value'),
  systemComponent: varchar('system_component', { length: 50 }).notNull().default('GENERAL'),
  isWriteOnly: boolean('is_write_only').notNull().default(false),
});
