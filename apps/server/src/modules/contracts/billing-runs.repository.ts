import { sql, type SQL } from 'drizzle-orm';
import type { BillingRun, ReadSource, RunDevice } from '@pagewatch/contracts/billing';
import type { Meter, MeterQualityFlag } from '@pagewatch/contracts/meter-reads';
import type { Db } from '../../db/client.ts';
import { sqlRows } from '../../db/sql-rows.ts';
import type { MeterLine } from './billing-figures.ts';

const ISO = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const DAY = (column: SQL) => sql`to_char(${column}, 'YYYY-MM-DD')`;

/** A run as stored; the money as text is the service's. */
export type RunRow = Omit<BillingRun, 'total'>;
const RUN = sql`r.id, r.contract_id AS "contractId", c.name AS "contractName", c.location_id AS "locationId", ${DAY(sql`r.period_from`)} AS "periodFrom",
  ${DAY(sql`r.period_to`)} AS "periodTo", r.state, r.currency, r.base_fee_minor AS "baseFeeMinor", r.total_minor AS "totalMinor",
  (SELECT count(*) FROM billing_run_devices rd WHERE rd.run_id = r.id AND cardinality(rd.flags) > 0 AND rd.reviewed_at IS NULL)::int AS "toReview",
  ${ISO(sql`r.computed_at`)} AS "computedAt", cu.login AS "closedBy", ${ISO(sql`r.closed_at`)} AS "closedAt"`;
const FROM = sql`billing_runs r JOIN contracts c ON c.id = r.contract_id LEFT JOIN users cu ON cu.id = r.closed_by`;
const typed = (r: Record<string, unknown>): RunRow => ({ ...(r as RunRow), id: Number(r.id), contractId: Number(r.contractId), locationId: Number(r.locationId), baseFeeMinor: Number(r.baseFeeMinor), totalMinor: Number(r.totalMinor) });

export async function runById(db: Db, id: number): Promise<RunRow | null> {
  const [r] = await sqlRows(db, sql`SELECT ${RUN} FROM ${FROM} WHERE r.id = ${id}`);
  return r ? typed(r) : null;
}

export async function runsOf(db: Db, contractId: number): Promise<RunRow[]> {
  return (await sqlRows(db, sql`SELECT ${RUN} FROM ${FROM} WHERE r.contract_id = ${contractId} ORDER BY r.period_from DESC`)).map(typed);
}

/** A new OPEN run of the period, or null when the contract has one for it already. */
export async function insertRun(db: Db, v: { contractId: number; periodFrom: string; periodTo: string; currency: string; baseFeeMinor: number }, userId: number): Promise<number | null> {
  const [r] = await sqlRows<{ id: number }>(db, sql`INSERT INTO billing_runs (contract_id, period_from, period_to, state, currency, base_fee_minor, total_minor, created_by)
    VALUES (${v.contractId}, ${v.periodFrom}::date, ${v.periodTo}::date, 'OPEN', ${v.currency}, ${v.baseFeeMinor}, ${v.baseFeeMinor}, ${userId})
    ON CONFLICT (contract_id, period_from) DO NOTHING RETURNING id`);
  return r ? Number(r.id) : null;
}

/** A device's figures for the run, its review carried over from the run before when its flags are the same. */
export type RunDeviceValues = {
  serialNumber: string;
  equipmentId: string | null;
  deviceId: number | null;
  modelCode: string | null;
  from: string;
  to: string;
  flags: MeterQualityFlag[];
  estimated: boolean;
  amountMinor: number;
  review: { by: number | null; at: string; note: string } | null;
  lines: MeterLine[];
};

/** The reviews of a run's devices, by serial and first day: what a re-run keeps where the flags did not change. */
export async function reviewsOf(db: Db, runId: number) {
  const rows = await sqlRows<{ key: string; flags: string[]; by: number | null; at: string; note: string }>(db, sql`SELECT lower(serial_number) || '|' || ${DAY(sql`window_from`)} AS key,
    flags, reviewed_by AS by, ${ISO(sql`reviewed_at`)} AS at, review_note AS note FROM billing_run_devices WHERE run_id = ${runId} AND reviewed_at IS NOT NULL`);
  return new Map(rows.map((r) => [r.key, { flags: r.flags.join(','), by: r.by === null ? null : Number(r.by), at: r.at, note: r.note }]));
}

const CHUNK = 2_000;

/** The run's figures anew (an OPEN run's): its devices and their meters replaced, its total and time of computing set. */
export async function replaceFigures(tx: Db, runId: number, devices: RunDeviceValues[], totalMinor: number): Promise<void> {
  await tx.execute(sql`DELETE FROM billing_run_devices WHERE run_id = ${runId}`);
  for (let i = 0; i < devices.length; i += CHUNK) {
    const part = devices.slice(i, i + CHUNK);
    const ids = await sqlRows<{ id: number; key: string }>(tx, sql`INSERT INTO billing_run_devices (run_id, serial_number, equipment_id, device_id, model_code, window_from, window_to, flags, estimated,
        amount_minor, reviewed_by, reviewed_at, review_note)
      SELECT ${runId}, x.serial, x.equipment, x.device, x.model, x.wf, x.wt, ARRAY(SELECT jsonb_array_elements_text(x.flags))::varchar(10)[], x.estimated, x.amount, x.rby, x.rat, x.rnote
      FROM jsonb_to_recordset(${JSON.stringify(part.map((d) => ({
        serial: d.serialNumber, equipment: d.equipmentId, device: d.deviceId, model: d.modelCode, wf: d.from, wt: d.to, flags: d.flags, estimated: d.estimated,
        amount: d.amountMinor, rby: d.review?.by ?? null, rat: d.review?.at ?? null, rnote: d.review?.note ?? null,
      })))}::jsonb) AS x(serial varchar, equipment varchar, device int, model varchar, wf date, wt date, flags jsonb, estimated boolean, amount bigint,
        rby int, rat timestamptz, rnote varchar)
      RETURNING id, serial_number || '|' || ${DAY(sql`window_from`)} AS key`);
    const idOf = new Map(ids.map((r) => [r.key, Number(r.id)]));
    const meters = part.flatMap((d) => d.lines.map((l) => ({
      id: idOf.get(`${d.serialNumber}|${d.from}`)!, meter: l.meter, ov: l.opening.value, od: l.opening.date, os: l.opening.source, cv: l.closing.value, cd: l.closing.date, cs: l.closing.source,
      pages: l.pages, inc: l.includedPages, bill: l.billablePages, price: l.priceMicros, amount: l.amountMinor,
    })));
    for (let k = 0; k < meters.length; k += CHUNK * 2) {
      await tx.execute(sql`INSERT INTO billing_run_meters (run_device_id, meter, opening_value, opening_date, opening_source, closing_value, closing_date, closing_source,
          pages, included_pages, billable_pages, price_micros, amount_minor)
        SELECT x.id, x.meter, x.ov, x.od, x.os, x.cv, x.cd, x.cs, x.pages, x.inc, x.bill, x.price, x.amount
        FROM jsonb_to_recordset(${JSON.stringify(meters.slice(k, k + CHUNK * 2))}::jsonb) AS x(id int, meter varchar, ov bigint, od date, os varchar, cv bigint, cd date, cs varchar,
          pages bigint, inc bigint, bill bigint, price bigint, amount bigint)`);
    }
  }
  await tx.execute(sql`UPDATE billing_runs SET total_minor = ${totalMinor}, computed_at = now() WHERE id = ${runId}`);
}

/** A run's devices with their meters, by serial. */
export async function runDevices(db: Db, runId: number): Promise<(Omit<RunDevice, 'amount' | 'meters'> & { meters: (Omit<RunDevice['meters'][number], 'price'> & { priceMicros: number })[] })[]> {
  const rows = await sqlRows(db, sql`SELECT rd.id, rd.serial_number AS "serialNumber", rd.equipment_id AS "equipmentId", rd.device_id AS "deviceId", rd.model_code AS "modelCode",
      ${DAY(sql`rd.window_from`)} AS "from", ${DAY(sql`rd.window_to`)} AS "to", rd.flags, rd.estimated, rd.amount_minor AS "amountMinor",
      u.login AS "reviewedBy", ${ISO(sql`rd.reviewed_at`)} AS "reviewedAt", rd.review_note AS "reviewNote",
      coalesce((SELECT json_agg(json_build_object('meter', m.meter, 'ov', m.opening_value, 'od', ${DAY(sql`m.opening_date`)}, 'os', m.opening_source,
        'cv', m.closing_value, 'cd', ${DAY(sql`m.closing_date`)}, 'cs', m.closing_source, 'pages', m.pages, 'inc', m.included_pages, 'bill', m.billable_pages,
        'price', m.price_micros, 'amount', m.amount_minor) ORDER BY m.meter) FROM billing_run_meters m WHERE m.run_device_id = rd.id), '[]') AS meters
    FROM billing_run_devices rd LEFT JOIN users u ON u.id = rd.reviewed_by WHERE rd.run_id = ${runId} ORDER BY rd.serial_number, rd.window_from, rd.id`);
  const n = (v: unknown) => (v == null ? null : Number(v));
  return rows.map((r) => ({
    id: Number(r.id), serialNumber: String(r.serialNumber), equipmentId: (r.equipmentId as string | null) ?? null, deviceId: n(r.deviceId), modelCode: (r.modelCode as string | null) ?? null,
    from: String(r.from), to: String(r.to), flags: r.flags as MeterQualityFlag[], estimated: Boolean(r.estimated), amountMinor: Number(r.amountMinor),
    reviewedBy: (r.reviewedBy as string | null) ?? null, reviewedAt: (r.reviewedAt as string | null) ?? null, reviewNote: (r.reviewNote as string | null) ?? null,
    meters: (r.meters as Record<string, unknown>[]).map((m) => ({
      meter: m.meter as Meter,
      opening: { value: n(m.ov), date: (m.od as string | null) ?? null, source: (m.os as ReadSource | null) ?? null },
      closing: { value: n(m.cv), date: (m.cd as string | null) ?? null, source: (m.cs as ReadSource | null) ?? null },
      pages: n(m.pages), includedPages: Number(m.inc), billablePages: Number(m.bill), priceMicros: Number(m.price), amountMinor: Number(m.amount),
    })),
  }));
}

/** The run device's run, flags and review (for a review's checks). */
export async function runDeviceById(db: Db, id: number): Promise<{ runId: number; flags: string[] } | null> {
  const [r] = await sqlRows<{ runId: number; flags: string[] }>(db, sql`SELECT run_id AS "runId", flags FROM billing_run_devices WHERE id = ${id}`);
  return r ? { runId: Number(r.runId), flags: r.flags } : null;
}

export async function reviewDevice(tx: Db, id: number, userId: number, note: string): Promise<void> {
  await tx.execute(sql`UPDATE billing_run_devices SET reviewed_by = ${userId}, reviewed_at = now(), review_note = ${note} WHERE id = ${id}`);
}

/** Closes an OPEN run with nothing left to review; false when it was closed already or something is left. */
export async function closeRun(tx: Db, id: number, userId: number): Promise<boolean> {
  const rows = await sqlRows(tx, sql`UPDATE billing_runs r SET state = 'CLOSED', closed_by = ${userId}, closed_at = now() WHERE r.id = ${id} AND r.state = 'OPEN'
    AND NOT EXISTS (SELECT 1 FROM billing_run_devices rd WHERE rd.run_id = r.id AND cardinality(rd.flags) > 0 AND rd.reviewed_at IS NULL) RETURNING r.id`);
  return rows.length > 0;
}

/** Locks the run's row for the rest of the transaction (a re-run, a review and a close of one run wait for each other). */
export async function lockRun(tx: Db, id: number): Promise<string | null> {
  const [r] = await sqlRows<{ state: string }>(tx, sql`SELECT state FROM billing_runs WHERE id = ${id} FOR UPDATE`);
  return r?.state ?? null;
}

/** The closing reads of the contract's closed run that ends the day before `periodFrom`: by lower-case serial, then meter. */
export async function previousClosings(db: Db, contractId: number, periodFrom: string): Promise<Map<string, Map<string, { value: number; date: string }>>> {
  const rows = await sqlRows<{ serial: string; meter: string; value: number; date: string }>(db, sql`SELECT lower(rd.serial_number) AS serial, m.meter, m.closing_value AS value,
      ${DAY(sql`m.closing_date`)} AS date
    FROM billing_runs r JOIN billing_run_devices rd ON rd.run_id = r.id JOIN billing_run_meters m ON m.run_device_id = rd.id
    WHERE r.contract_id = ${contractId} AND r.state = 'CLOSED' AND r.period_to = ${periodFrom}::date - 1 AND rd.window_to = r.period_to AND m.closing_value IS NOT NULL`);
  const out = new Map<string, Map<string, { value: number; date: string }>>();
  for (const r of rows) {
    if (!out.has(r.serial)) out.set(r.serial, new Map());
    out.get(r.serial)!.set(r.meter, { value: Number(r.value), date: r.date });
  }
  return out;
}
