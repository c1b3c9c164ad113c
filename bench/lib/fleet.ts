/**
 * The fleet the lists and reports benchmarks share: 100,000 devices (BENCH_DEVICES) with their
 * supplies and a year (BENCH_DAYS) of daily history, every model at every one of 20 locations,
 * filled in bulk on PostgreSQL once and kept with BENCH_KEEP=1.
 */
import type pg from 'pg';

export const DEVICES = Number(process.env.BENCH_DEVICES ?? 100_000);
export const DAYS = Number(process.env.BENCH_DAYS ?? 365);
export const FLEET_DB = 'pw_bench_lists';
export const LOCATIONS = 20;
/** Marks a filled database; a database filled by an older version of this script is filled again. */
const LAYOUT = 'pagewatch bench:lists, layout 3 (every model at every location, toners that fall and are replaced)';
/** Devices per INSERT of the history: a chunk of days x devices at a time keeps memory small. */
const HISTORY_CHUNK = 5_000;


const MODELS = [
  ['HP', 'LaserJet Pro M404dn', 'PRINTER', 'MONO', 'A4'],
  ['HP', 'Color LaserJet Pro MFP M479fdw', 'MFP', 'COLOR', 'A4'],
  ['Xerox', 'VersaLink C405', 'MFP', 'COLOR', 'A4'],
  ['Xerox', 'AltaLink C8130', 'MFP', 'COLOR', 'A3'],
  ['Kyocera', 'ECOSYS P3145dn', 'PRINTER', 'MONO', 'A4'],
  ['Kyocera', 'TASKalfa 3253ci', 'MFP', 'COLOR', 'A3'],
  ['Brother', 'HL-L6210DW', 'PRINTER', 'MONO', 'A4'],
  ['Canon', 'i-SENSYS LBP325x', 'PRINTER', 'MONO', 'A4'],
  ['Ricoh', 'IM C3000', 'MFP', 'COLOR', 'A3'],
  ['Konica Minolta', 'bizhub C300i', 'MFP', 'COLOR', 'A3'],
] as const;

/** A fleet like the simulator's, in bulk: devices, supplies, a year of days and supply days. */
export async function fillFleet(c: pg.Client) {
  const { rows: [{ n: have }] } = await c.query<{ n: number }>('SELECT count(*)::int AS n FROM devices');
  const { rows: [{ n: days }] } = await c.query<{ n: number }>('SELECT count(DISTINCT fact_date)::int AS n FROM dm_device_days WHERE device_id = (SELECT min(id) FROM devices)');
  const { rows: [{ layout }] } = await c.query<{ layout: string | null }>(`SELECT obj_description('devices'::regclass, 'pg_class') AS layout`);
  if (have >= DEVICES && days >= DAYS && layout === LAYOUT) return console.log(`database kept from an earlier run: ${have.toLocaleString('en')} devices, ${days} days`);
  await c.query('TRUNCATE devices CASCADE');
  const { rows: [def] } = await c.query<{ id: number }>(`SELECT id FROM locations WHERE code = 'DEFAULT'`);
  for (let i = 1; i <= LOCATIONS; i++) {
    await c.query(`INSERT INTO locations (code, name, parent_id) VALUES ($1, $2, $3) ON CONFLICT (code) DO NOTHING`, [`BENCH${i}`, `Site ${i}`, def.id]);
  }
  const { rows: locs } = await c.query<{ id: number }>(`SELECT id FROM locations WHERE code LIKE 'BENCH%' ORDER BY id`);
  const started = Date.now();
  const m = (k: number) => `(ARRAY[${MODELS.map((x) => `'${x[k]}'`).join(',')}])[1 + i % ${MODELS.length}]`;
  await c.query(
    `INSERT INTO devices (id, model_vendor_code, model_code, device_type, color_type, paper_format, serial_number, inventory_number,
       snmp_location, host_name, location_id, ip, mac_address, firmware, status_code, snmp_status_code, printer_status,
       created_at, refreshed_at, managed_flag, total_count, mono_count, color_count, toner_black, toner_cyan, toner_magenta, toner_yellow,
       new_device30_flag, not_available_flag, mat_replacement_required_flag, need_attention_flag)
     SELECT i, ${m(0)}, ${m(1)}, ${m(2)}, ${m(3)}, ${m(4)},
       upper(substr(md5(i::text), 1, 4)) || lpad(i::text, 8, '0'), CASE WHEN i % 3 = 0 THEN 'INV-' || i END,
       'Floor ' || (i % 9), 'PRN' || lpad(i::text, 6, '0'), ($2::int[])[1 + abs(hashint4(i)) % ${LOCATIONS}],
       '10.' || (i / 65536) || '.' || (i / 256 % 256) || '.' || (i % 256), NULL, '1.' || (i % 7),
       CASE WHEN i % 50 = 0 THEN 'NOT_AVAILABLE' WHEN i % 17 = 0 THEN 'WARNING' ELSE 'OK' END, 'running', 'idle',
       now() - make_interval(days => 400 - i % 380), now() - make_interval(mins => i % 60), i % 10 <> 0,
       10000 + (i::bigint * 7919) % 900000, 10000 + (i::bigint * 7919) % 600000, CASE WHEN ${m(3)} = 'COLOR' THEN (i::bigint * 104729) % 300000 END,
       (i::bigint * 31) % 101, CASE WHEN ${m(3)} = 'COLOR' THEN (i::bigint * 37) % 101 END, CASE WHEN ${m(3)} = 'COLOR' THEN (i::bigint * 41) % 101 END,
       CASE WHEN ${m(3)} = 'COLOR' THEN (i::bigint * 43) % 101 END,
       i % 380 > 370, i % 50 = 0, i % 23 = 0, i % 61 = 0
     FROM generate_series(1, $1::int) AS i`,
    [DEVICES, locs.map((l) => l.id)],
  );
  await c.query(`SELECT setval('devices_id_seq', $1)`, [DEVICES]);
  // Supplies: the toners of the device (four for colour models), a drum every third device; some levels unknown.
  await c.query(
    `INSERT INTO consumables (device_id, supply_index, part_code, part_name, colorant, supply_class, part_model_code, part_serial_number,
       unit, raw_level, max_capacity, level_state, level, refreshed_at)
     SELECT d.id, k, CASE WHEN k = 5 THEN 'opc' ELSE 'toner' END,
       CASE WHEN k = 5 THEN 'Drum Cartridge' ELSE initcap(c) || ' Toner Cartridge' END, CASE WHEN k < 5 THEN c END, 'consumed',
       'PN-' || k || '-' || (d.id % 97), CASE WHEN d.id % 4 = 0 THEN 'SN' || d.id || k END, 'percent',
       CASE WHEN d.id % 29 = 0 THEN -3 WHEN d.id % 31 = 0 THEN -2 ELSE (d.id * (7 + k)) % 101 END, 100,
       CASE WHEN d.id % 29 = 0 THEN 'SOME_REMAINING' WHEN d.id % 31 = 0 THEN 'UNKNOWN' END,
       CASE WHEN d.id % 29 = 0 OR d.id % 31 = 0 THEN NULL ELSE (d.id * (7 + k)) % 101 END, d.refreshed_at
     FROM devices d
     CROSS JOIN LATERAL (SELECT k, (ARRAY['black','cyan','magenta','yellow','drum'])[k] AS c FROM generate_series(1, 5) k) s
     WHERE k = 1 OR (k < 5 AND d.color_type = 'COLOR') OR (k = 5 AND d.id % 3 = 0)`,
  );
  console.log(`devices and supplies: ${Math.round((Date.now() - started) / 1000)} s`);
  // The history's months as partitions (migration 0038), as an upgraded database has them: a new
  // one has this month's and those ahead only, and the DEFAULT partition would take the rest.
  for (const table of ['dm_device_days', 'dm_device_part_days']) {
    await c.query(`DO $$ DECLARE m date := date_trunc('month', current_date - ${DAYS})::date; BEGIN
      WHILE m < date_trunc('month', current_date) LOOP
        IF to_regclass('${table}_p' || to_char(m, 'YYYYMM')) IS NULL THEN
          EXECUTE format('CREATE TABLE %I PARTITION OF ${table} FOR VALUES FROM (%L) TO (%L)', '${table}_p' || to_char(m, 'YYYYMM'), m, (m + interval '1 month')::date);
        END IF;
        m := (m + interval '1 month')::date;
      END LOOP; END $$`);
  }
  // A year of history: counters growing by day; the black toner falling 3 points a day, replaced when it would go below 0.
  for (let from = 1; from <= DEVICES; from += HISTORY_CHUNK) {
    const to = Math.min(DEVICES, from + HISTORY_CHUNK - 1);
    await c.query(
      `INSERT INTO dm_device_days (fact_date, device_id, location_id, total_count, mono_count, color_count, total_start, readings, status_code, updated_at)
       SELECT current_date - g, d.id, d.location_id, d.total_count - g * (d.id % 90), d.mono_count - g * (d.id % 60), d.color_count - g * (d.id % 30),
         d.total_count - g * (d.id % 90) - (d.id % 90), 24, 'OK', now() - make_interval(days => g)
       FROM devices d CROSS JOIN generate_series(0, $3::int - 1) g WHERE d.id BETWEEN $1 AND $2`,
      [from, to, DAYS],
    );
    await c.query(
      `INSERT INTO dm_device_part_days (fact_date, device_id, supply_index, part_code, colorant, part_model_code, raw_level, level, min_level, replaced)
       SELECT current_date - g, s.device_id, s.supply_index, s.part_code, s.colorant, s.part_model_code,
         (g * 3 + s.device_id) % 100, (g * 3 + s.device_id) % 100, (g * 3 + s.device_id) % 100, (g * 3 + s.device_id) % 100 >= 97
       FROM consumables s CROSS JOIN generate_series(0, $3::int - 1) g WHERE s.supply_index = 1 AND s.device_id BETWEEN $1 AND $2`,
      [from, to, DAYS],
    );
    process.stdout.write(`\rhistory: ${to.toLocaleString('en')} of ${DEVICES.toLocaleString('en')} devices x ${DAYS} days (${Math.round((Date.now() - started) / 1000)} s)`);
  }
  process.stdout.write('\n');
  await c.query('VACUUM ANALYZE devices');
  await c.query('VACUUM ANALYZE consumables');
  await c.query('VACUUM ANALYZE dm_device_days');
  await c.query('VACUUM ANALYZE dm_device_part_days');
  await c.query('VACUUM ANALYZE locations');
  await c.query(`COMMENT ON TABLE devices IS '${LAYOUT}'`);
}

