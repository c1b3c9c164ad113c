import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { DEVICE_FIELDS, deviceRowDefinition } from '@pagewatch/contracts/devices';
import type { Scoped } from '../../db/scope.ts';
import { runList, runListJson } from '../../lib/list-run.ts';
import { useDevicesWorld, world } from '../../test/devices-world.ts';
import { devicesListSql, devicesListSqlOf } from './devices.list.ts';
import { deviceListRow } from './devices.repository.ts';

/**
 * Issue 40: a device field is defined once (DEVICE_FIELDS). Adding a column is its entry, the
 * migration that adds it and its header's translations (apps/web devices-list.test.ts checks
 * those for every field): this test adds one as the migration would, and the list (its rows,
 * filter and sort), the card's row and the grid's column carry it with no other change.
 */
useDevicesWorld();
const everyLocation: Scoped = { scope: new Set(), allLocations: true };

describe('a device column added to its one definition', () => {
  const fields = { ...DEVICE_FIELDS, wasteToner: { schema: z.number().nullable(), shown: true } };
  const { row, list } = deviceRowDefinition(fields);
  const def = devicesListSqlOf(fields, list);

  beforeAll(async () => {
    const db = world.t.ctx.db;
    // What the column's one migration does.
    await db.execute(sql`ALTER TABLE devices ADD COLUMN waste_toner smallint`);
    await db.execute(sql`UPDATE devices SET waste_toner = CASE serial_number WHEN 'SA1' THEN 90 WHEN 'SA2' THEN 15 WHEN 'SB1' THEN 40 END`);
  });

  it('is a column of the grid, shown, sortable and filterable, with its header key', () => {
    expect(list.columns.find((c) => c.field === 'wasteToner')).toEqual({
      field: 'wasteToner', type: 'number', sortable: true, filterable: true, hidden: false, day: false, title: 'devices.wasteToner',
    });
    // Every other column as the product's list has it.
    expect(list.columns.filter((c) => c.field !== 'wasteToner')).toEqual(deviceRowDefinition(DEVICE_FIELDS).list.columns);
  });

  it('is in every row of the list, which its row schema takes field for field', async () => {
    const page = JSON.parse(await runListJson(world.t.ctx.db, def, { page: '100,1' }, everyLocation)) as { pageRows: Record<string, unknown>[] };
    expect(page.pageRows.length).toBe(6);
    for (const r of page.pageRows) expect(row.strict().safeParse(r).error, JSON.stringify(r)).toBeUndefined();
    expect(Object.fromEntries(page.pageRows.map((r) => [r.serialNumber, r.wasteToner]))).toMatchObject({ SA1: 90, SA2: 15, SB1: 40, SA3: null });
  });

  it('filters and sorts the list', async () => {
    const page = await runList<Record<string, unknown>>(world.t.ctx.db, def, {
      page: '100,1', sort: 'wasteToner,DESC', 'filter-json': JSON.stringify(['wasteToner', '>=', 15]),
    });
    expect(page.pageRows.map((r) => [r.serialNumber, r.wasteToner])).toEqual([['SA1', 90], ['SB1', 40], ['SA2', 15]]);
    expect(page.totalRows).toBe(3);
  });

  it("is in the card's row, read through the same list", async () => {
    const card = await deviceListRow<Record<string, unknown>>(world.t.ctx.db, everyLocation, world.ids.SA1, def);
    expect(card).toMatchObject({ serialNumber: 'SA1', wasteToner: 90 });
    // The product's card reads the same row without the column.
    const product = await deviceListRow(world.t.ctx.db, everyLocation, world.ids.SA1, devicesListSql);
    expect({ ...product, wasteToner: 90 }).toEqual(card);
  });
});
