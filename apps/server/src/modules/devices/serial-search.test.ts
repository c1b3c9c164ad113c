import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp } from '../../test/test-app.ts';
import { sqlRows } from '../../test/sql-rows.ts';
import { parseListQuery } from '../../lib/list-query.ts';
import { runList } from '../../lib/list-run.ts';
import { devicesListSql } from './devices.list.ts';
import { consumablesListSql } from '../consumables/consumables.list.ts';

/**
 * Part of a serial on the devices and supplies grids (issue 22). Two characters: each device's
 * pairs of characters are kept in `device_serial_pairs` by a trigger (migration 0032), carrying
 * the texts the grid sorts by, so a pair's devices and their sort values are one range of its
 * primary key. Five or more that few devices hold: their five-grams (migration 0033).
 */
let t: Awaited<ReturnType<typeof createTestApp>>;
let sites: number[];
const N = 4_000;

beforeAll(async () => {
  t = await createTestApp();
  const made = await sqlRows<{ id: number }>(t.ctx.db, sql`
    INSERT INTO locations (code, name) SELECT 'PAIRS' || i, 'Pairs site ' || i FROM generate_series(1, 3) i RETURNING id`);
  sites = made.map((r) => r.id).sort((a, b) => a - b);
  // Serials of 8 hexadecimal characters, a third without an inventory number, some without a
  // serial at all, over three sites.
  await t.ctx.db.execute(sql`
    INSERT INTO devices (model_code, serial_number, inventory_number, host_name, ip, location_id, device_type, total_count)
    SELECT 'Model ' || (i % 7), CASE WHEN i % 50 = 0 THEN NULL ELSE upper(substr(md5(i::text), 1, 8)) END,
      CASE WHEN i % 3 = 0 THEN NULL ELSE 'INV-' || (i % 400) END, 'prn-' || i, '10.9.' || (i / 250) || '.' || (i % 250),
      (${sql.raw(`ARRAY[${sites.join(',')}]`)})[1 + i % 3], 'PRINTER', i * 10
    FROM generate_series(1, ${N}) i`);
  await t.ctx.db.execute(sql`
    INSERT INTO consumables (device_id, supply_index, part_code, part_name, colorant, percent, refreshed_at)
    SELECT d.id, k, 'toner', 'Toner ' || k, 'black', (d.id * 7 + k) % 100, now() FROM devices d, generate_series(1, 2) k`);
  for (const table of ['devices', 'consumables', 'device_serial_pairs']) await t.ctx.db.execute(sql`VACUUM ANALYZE ${sql.identifier(table)}`);
});
afterAll(() => t.close());

type Pair = { pair: string; location_id: number; model_code: string | null; serial_number: string | null; inventory_number: string | null; host_name: string | null; ip: string };
const pairsOf = (id: number) =>
  sqlRows<Pair>(t.ctx.db, sql`SELECT pair, location_id, model_code, serial_number, inventory_number, host_name, ip FROM device_serial_pairs WHERE id = ${id} ORDER BY pair`);

describe("a device's pairs of serial characters", () => {
  it('follow its serial and the texts they carry, and are not written again by a poll', async () => {
    const [{ id }] = await sqlRows<{ id: number }>(t.ctx.db, sql`
      INSERT INTO devices (model_code, serial_number, host_name, ip, location_id) VALUES ('M1', 'AB12ab', 'h1', '10.0.0.1', ${sites[0]}) RETURNING id`);
    // Lowered, each once.
    expect((await pairsOf(id)).map((p) => p.pair)).toEqual(['12', '2a', 'ab', 'b1']);
    expect((await pairsOf(id))[0]).toMatchObject({ location_id: sites[0], model_code: 'M1', serial_number: 'AB12ab', host_name: 'h1', ip: '10.0.0.1', inventory_number: null });
    const rows = () => sqlRows<{ ctid: string }>(t.ctx.db, sql`SELECT ctid::text FROM device_serial_pairs WHERE id = ${id} ORDER BY pair`);
    const before = await rows();
    // A poll rewrites the device with the same texts: its pairs stay as they are.
    await t.ctx.db.execute(sql`UPDATE devices SET total_count = 5, refreshed_at = now(), ip = '10.0.0.1', model_code = 'M1' WHERE id = ${id}`);
    expect(await rows()).toEqual(before);
    await t.ctx.db.execute(sql`UPDATE devices SET serial_number = 'XY9', inventory_number = 'INV-7', location_id = ${sites[1]} WHERE id = ${id}`);
    expect(await pairsOf(id)).toEqual([
      { pair: 'xy', location_id: sites[1], model_code: 'M1', serial_number: 'XY9', inventory_number: 'INV-7', host_name: 'h1', ip: '10.0.0.1' },
      { pair: 'y9', location_id: sites[1], model_code: 'M1', serial_number: 'XY9', inventory_number: 'INV-7', host_name: 'h1', ip: '10.0.0.1' },
    ]);
    await t.ctx.db.execute(sql`UPDATE devices SET serial_number = NULL WHERE id = ${id}`);
    expect(await pairsOf(id)).toEqual([]);
    await t.ctx.db.execute(sql`UPDATE devices SET serial_number = 'QQ' WHERE id = ${id}`);
    expect((await pairsOf(id)).map((p) => p.pair)).toEqual(['qq']);
    await t.ctx.db.execute(sql`DELETE FROM devices WHERE id = ${id}`);
    expect(await pairsOf(id)).toEqual([]);
  });
});

describe('two characters of a serial on the devices grid', () => {
  const query = (text: string, sort: string[], page = '50,1') => ({ page, sort, 'filter-json': JSON.stringify(['serialNumber', 'contains', text]) });

  it('are read from the pairs where the order is of the texts they carry, and nowhere else', () => {
    const pairs = (q: Parameters<typeof parseListQuery>[1]) => parseListQuery(devicesListSql, q).pairsWhere;
    expect(pairs(query('a1', ['inventoryNumber,ASC', 'modelCode,ASC']))).not.toBeNull();
    expect(pairs(query('a1', []))).not.toBeNull();
    expect(pairs(query('a1', ['locationId,DESC', 'ip,ASC']))).not.toBeNull();
    // An order by a counter, three characters, another condition beside the pair, or one
    // inside a NOT: the devices themselves.
    expect(pairs(query('a1', ['totalCount,DESC']))).toBeNull();
    expect(pairs(query('a1b', []))).toBeNull();
    expect(pairs({ 'filter-json': JSON.stringify([['serialNumber', 'contains', 'a1'], 'and', ['totalCount', '>', 5]]) })).toBeNull();
    expect(pairs({ 'filter-json': JSON.stringify([['serialNumber', 'contains', 'a1'], 'or', ['serialNumber', 'contains', 'b2']]) })).toBeNull();
    expect(pairs({ 'filter-json': JSON.stringify(['!', ['serialNumber', 'contains', 'a1']]) })).toBeNull();
  });

  it('find the same devices in the same order as the devices themselves, page after page, for any caller', async () => {
    const operator = { scope: new Set([sites[0], sites[2]]), allLocations: false };
    const cases: [string, string[], string, typeof operator | null][] = [
      ['a1', ['inventoryNumber,ASC', 'modelCode,ASC'], 'inventory_number NULLS FIRST, model_code NULLS FIRST, id', null],
      ['e4', ['ip,DESC'], 'ip DESC NULLS LAST, id', null],
      ['0f', ['locationId,ASC', 'serialNumber,DESC'], 'location_id NULLS FIRST, serial_number DESC NULLS LAST, id', operator],
      ['b7', ['hostName,ASC'], 'host_name NULLS FIRST, id', operator],
      // Not carried: read from the devices, as before.
      ['c3', ['totalCount,DESC'], 'total_count DESC NULLS LAST, id', operator],
    ];
    for (const [text, sort, order, caller] of cases) {
      const scope = caller ? sql`AND location_id IN (${sql.join([...caller.scope].map((s) => sql`${s}`), sql`, `)})` : sql``;
      const truth = await sqlRows<{ id: number }>(t.ctx.db, sql`
        SELECT id FROM devices WHERE serial_number ILIKE ${`%${text}%`} ${scope} ORDER BY ${sql.raw(order)}`);
      expect(truth.length, text).toBeGreaterThan(60);
      // Twice: counted, then with the count kept.
      for (const round of [1, 2]) {
        const got: number[] = [];
        let total = 0;
        for (const n of [1, 2, 3]) {
          const page = await runList<{ id: number }>(t.ctx.db, devicesListSql, query(text, sort, `20,${n}`), caller);
          got.push(...page.pageRows.map((r) => r.id));
          total = page.totalRows;
        }
        expect(got, `${text} ${sort.join(' ')}, round ${round}`).toEqual(truth.slice(0, 60).map((r) => r.id));
        expect(total, `${text}, round ${round}`).toBe(truth.length);
      }
    }
  });

  it("read one range of the pairs' primary key, without visiting the devices", async () => {
    const { pairsWhere } = parseListQuery(devicesListSql, query('a1', ['inventoryNumber,ASC']));
    // A few thousand rows are read as fast through a bitmap; on 100,000 devices (960,000 pairs)
    // the planner takes the index alone by itself (bench:lists). Can it?
    const text = await t.ctx.db.transaction(async (tx) => {
      for (const path of ['enable_seqscan', 'enable_bitmapscan']) await tx.execute(sql`SELECT set_config(${path}, 'off', true)`);
      const plan = (await tx.execute(sql`
        EXPLAIN (COSTS OFF) SELECT d.inventory_number, d.id FROM device_serial_pairs d WHERE ${pairsWhere!} ORDER BY d.inventory_number NULLS FIRST, d.id LIMIT 50`)).rows as { 'QUERY PLAN': string }[];
      return plan.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(text).toContain('Index Only Scan using device_serial_pairs_pair_id_pk');
    expect(text).not.toContain('devices');
  });
});

describe('five characters of a serial or more', () => {
  const fiveOf = async () => {
    // A text of five characters that a few devices hold: the middle of one device's serial.
    const [{ serial }] = await sqlRows<{ serial: string }>(t.ctx.db, sql`SELECT serial_number AS serial FROM devices WHERE serial_number IS NOT NULL ORDER BY id LIMIT 1 OFFSET 77`);
    return serial.slice(1, 6).toLowerCase();
  };

  it('find the devices and their supplies through the five-grams, the same rows as the planned statement', async () => {
    const text = await fiveOf();
    const filter = JSON.stringify(['serialNumber', 'contains', text]);
    for (const def of [devicesListSql, consumablesListSql]) expect(parseListQuery(def, { 'filter-json': filter }).gramsWhere).not.toBeNull();
    const cases: [typeof devicesListSql, string[], ReturnType<typeof sql>][] = [
      [devicesListSql, ['modelCode,ASC'], sql`SELECT id::text AS id FROM devices WHERE serial_number ILIKE ${`%${text}%`} ORDER BY model_code NULLS FIRST, serial_number NULLS FIRST, id`],
      [consumablesListSql, ['level,ASC'], sql`
        SELECT s.device_id || '-' || s.supply_index AS id FROM consumables s JOIN devices d ON d.id = s.device_id
        WHERE d.serial_number ILIKE ${`%${text}%`} ORDER BY s.percent NULLS FIRST, s.device_id, s.supply_index`],
    ];
    for (const [def, sort, truth] of cases) {
      const want = (await sqlRows<{ id: string }>(t.ctx.db, truth)).map((r) => r.id);
      expect(want.length).toBeGreaterThan(0);
      // Counted first, then read through the five-grams once the count is kept.
      for (const round of [1, 2]) {
        const page = await runList<{ id: number | string; deviceId?: number; supplyIndex?: number }>(t.ctx.db, def, { page: '50,1', sort, 'filter-json': filter });
        expect(page.pageRows.map((r) => String(r.id)), `${text}, round ${round}`).toEqual(want.slice(0, 50));
        expect(page.totalRows).toBe(want.length);
      }
    }
  });

  it('are read through the index of five-grams by one statement for any text', async () => {
    const grams = (text: string) => parseListQuery(consumablesListSql, { 'filter-json': JSON.stringify(['serialNumber', 'contains', text]) }).gramsWhere!;
    const text = await fiveOf();
    const plan = await t.ctx.db.transaction(async (tx) => {
      for (const path of ['enable_seqscan', 'enable_indexscan']) await tx.execute(sql`SELECT set_config(${path}, 'off', true)`);
      const rows = (await tx.execute(sql`EXPLAIN (COSTS OFF) SELECT d.id FROM devices d WHERE ${grams(text)}`)).rows as { 'QUERY PLAN': string }[];
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('devices_serial_fivegrams');
  });
});
