import { timestamp } from 'drizzle-orm/pg-core';

/** A time stamp with its time zone, read as a Date: every table's time columns. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
