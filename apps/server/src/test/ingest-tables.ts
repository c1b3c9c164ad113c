import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { countRows, deleteAll, sqlRows } from './sql-rows.ts';

/** What the ingest tests read and clear, on the database `db()` gives (the test app's, once built). */
export function ingestTables(db: () => Db) {
  const rows = <T extends Record<string, unknown> = Record<string, unknown>>(q: ReturnType<typeof sql>) => sqlRows<T>(db(), q);
  const events = (deviceId?: number) =>
    rows<{ type: string; old_value: string | null; new_value: string | null; supply_index: number | null }>(
      deviceId === undefined ? sql`SELECT * FROM device_events ORDER BY id` : sql`SELECT * FROM device_events WHERE device_id = ${deviceId} ORDER BY id`,
    );
  return {
    rows,
    count: (table: string, where = sql`true`) => countRows(db(), table, where),
    events,
    eventTypes: async (deviceId?: number) => (await events(deviceId)).map((e) => e.type),
    /** Devices, their readings, ranges and agents: a clean slate for the next test. */
    clean: () => deleteAll(db(), ['devices', 'ingested_readings', 'network_ranges', 'agents']),
  };
}
