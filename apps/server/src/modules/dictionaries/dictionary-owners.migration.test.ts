import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { testApp } from '../../test/test-app.ts';

/**
 * Migration 0035 on an installation that has dictionaries of its own: the database is put back
 * as it was before (no owners), then the migration's statements run as the migrator runs them.
 */
const t = testApp({ signIn: false });

const MIGRATION = readFileSync(new URL('../../../drizzle/0035_dictionary_owners.sql', import.meta.url), 'utf8');
const rows = async (q: ReturnType<typeof sql>) => (await t.ctx.db.execute(q)).rows;

describe('migration 0035 (dictionary owners)', () => {
  it('gives the dictionaries made before it to DEFAULT, the system ones to none, and then refuses a dictionary without an owner', async () => {
    await t.ctx.db.execute(sql`ALTER TABLE dictionaries DROP COLUMN location_id`);
    await t.ctx.db.execute(sql`INSERT INTO dictionaries (code, name) VALUES ('OLD_ONE', 'Made before')`);
    for (const statement of MIGRATION.split('--> statement-breakpoint')) await t.ctx.db.execute(sql.raw(statement));

    const owners = await rows(sql`SELECT d.code, l.code AS owner FROM dictionaries d LEFT JOIN locations l ON l.id = d.location_id WHERE d.code IN ('OLD_ONE', 'PRINTER_TYPE', 'LOCATION') ORDER BY d.code`);
    expect(owners).toEqual([{ code: 'LOCATION', owner: null }, { code: 'OLD_ONE', owner: 'DEFAULT' }, { code: 'PRINTER_TYPE', owner: null }]);
    await expect(t.ctx.db.execute(sql`INSERT INTO dictionaries (code, name) VALUES ('NO_OWNER', 'x')`)).rejects.toThrow();
    await expect(t.ctx.db.execute(sql`UPDATE dictionaries SET location_id = 1 WHERE code = 'PRINTER_TYPE'`)).rejects.toThrow();
  });
});
