import { sql, type SQL } from 'drizzle-orm';
import type { IdentityKind } from '@pagewatch/contracts/devices';
import type { Db } from '../../db/client.ts';

const int = (v: unknown) => Number(v ?? 0);

export type PairDevice = { id: number; modelCode: string | null; serialNumber: string | null; ip: string; locationId: number; locationName: string };
export type StoredPair = { kind: IdentityKind; older: PairDevice; newer: PairDevice };

/** A device and its location from a row of columns id, model_code, serial_number, ip, location_id, location_name (home's lists). */
export const placedDevice = (r: Record<string, unknown>): PairDevice => ({
  id: int(r.id),
  modelCode: (r.model_code as string | null) ?? null,
  serialNumber: (r.serial_number as string | null) ?? null,
  ip: String(r.ip),
  locationId: int(r.location_id),
  locationName: String(r.location_name),
});

/** The pairs whose two devices a caller sees, as the API names them (without their location ids). */
export function pairsSeenBy(pairs: StoredPair[], sees: (locationId: number) => boolean) {
  const named = ({ locationId: _, ...d }: PairDevice) => d;
  return pairs.filter((p) => sees(p.older.locationId) && sees(p.newer.locationId)).map((p) => ({ kind: p.kind, older: named(p.older), newer: named(p.newer) }));
}

/** At most this many pairs are kept: more are a data problem the grid shows better. */
const MAX_PAIRS = 1000;

/**
 * Devices that may be one (identity reconciliation): the same serial twice (a vendor that
 * differs, another location), the same MAC and model with another serial (a copied MAC of
 * another model is a network oddity, not one device), and a device that stopped being
 * seen at an address where a device of the same model with another serial appeared (a board
 * swap). `older` is the one last seen first.
 */
export async function identityPairs(db: Db, deviceId: number | null = null): Promise<StoredPair[]> {
  const branches = (where: SQL) => sql`
      SELECT 'SAME_SERIAL' AS kind, 1 AS rank, a.id AS older, b.id AS newer
      FROM devices a JOIN devices b ON lower(a.serial_number) = lower(b.serial_number)
        AND (a.refreshed_at, a.id) < (b.refreshed_at, b.id)
      WHERE btrim(coalesce(a.serial_number, '')) <> '' AND ${where}
      UNION ALL
      SELECT 'SAME_MAC', 2, a.id, b.id
      FROM devices a JOIN devices b ON a.mac_address = b.mac_address AND (a.refreshed_at, a.id) < (b.refreshed_at, b.id)
        AND a.model_code IS NOT DISTINCT FROM b.model_code
      WHERE a.mac_address IS NOT NULL AND a.mac_address <> '00:00:00:00:00:00' AND ${where}
      UNION ALL
      SELECT 'BOARD_SWAP', 3, a.id, b.id
      FROM devices a JOIN devices b ON a.ip = b.ip AND a.agent_id = b.agent_id AND a.model_code = b.model_code
        AND a.id <> b.id AND a.refreshed_at <= b.created_at
        AND lower(coalesce(a.serial_number, '')) <> lower(coalesce(b.serial_number, ''))
      WHERE ${where}`;
  // One device's pairs start from it, as the older or the newer, on the indexes of serial, MAC and address.
  const pairs = deviceId === null ? branches(sql`true`) : sql`${branches(sql`a.id = ${deviceId}`)} UNION ALL ${branches(sql`b.id = ${deviceId}`)}`;
  const res = await db.execute(sql`
    WITH pairs AS (${pairs}
    ), firsts AS (
      SELECT DISTINCT ON (older, newer) kind, older, newer FROM pairs p
      WHERE NOT EXISTS (
        SELECT 1 FROM device_identity_dismissals x
        WHERE (x.older_id, x.newer_id) IN ((p.older, p.newer), (p.newer, p.older)))
      ORDER BY older, newer, rank LIMIT ${MAX_PAIRS}
    )
    SELECT p.kind,
      a.id AS a_id, a.model_code AS a_model, a.serial_number AS a_serial, a.ip AS a_ip, a.location_id AS a_loc, la.name AS a_loc_name,
      b.id AS b_id, b.model_code AS b_model, b.serial_number AS b_serial, b.ip AS b_ip, b.location_id AS b_loc, lb.name AS b_loc_name
    FROM firsts p
    JOIN devices a ON a.id = p.older JOIN locations la ON la.id = a.location_id
    JOIN devices b ON b.id = p.newer JOIN locations lb ON lb.id = b.location_id
    ORDER BY p.newer DESC, p.older`);
  const device = (r: Record<string, unknown>, p: 'a' | 'b'): PairDevice => ({
    id: int(r[`${p}_id`]),
    modelCode: (r[`${p}_model`] as string | null) ?? null,
    serialNumber: (r[`${p}_serial`] as string | null) ?? null,
    ip: String(r[`${p}_ip`]),
    locationId: int(r[`${p}_loc`]),
    locationName: String(r[`${p}_loc_name`]),
  });
  return res.rows.map((r) => ({ kind: r.kind as IdentityKind, older: device(r, 'a'), newer: device(r, 'b') }));
}


/** An address change this many times in FLAP_HOURS, among few addresses, is one serial answering at two places. */
const FLAP_CHANGES = 3;
const FLAP_HOURS = 48;

export type AddressFlap = { device: PairDevice; addresses: string[] };

/**
 * Devices whose serial answers at two (or three) addresses in turn: their address changed back
 * and forth FLAP_CHANGES times in FLAP_HOURS. Readings match a device by serial, so two printers
 * that report the same serial (a copied board, a vendor's placeholder) become one row whose
 * address flaps; this is how the server notices them.
 */
export async function addressFlaps(db: Db, deviceId: number | null = null): Promise<AddressFlap[]> {
  const one = deviceId === null ? sql`true` : sql`h.device_id = ${deviceId}`;
  const res = await db.execute(sql`
    SELECT d.id, d.model_code, d.serial_number, d.ip, d.location_id, l.name AS location_name, f.addresses
    FROM (
      SELECT h.device_id, array_agg(DISTINCT h.ip ORDER BY h.ip) AS addresses
      FROM device_ip_history h
      WHERE h.changed_at > now() - make_interval(hours => ${FLAP_HOURS}) AND h.old_ip IS NOT NULL AND ${one}
      GROUP BY h.device_id
      HAVING count(*) >= ${FLAP_CHANGES} AND count(DISTINCT h.ip) <= 3
    ) f
    JOIN devices d ON d.id = f.device_id JOIN locations l ON l.id = d.location_id
    ORDER BY d.id LIMIT ${MAX_PAIRS}`);
  return res.rows.map((r) => ({
    device: { id: int(r.id), modelCode: (r.model_code as string | null) ?? null, serialNumber: (r.serial_number as string | null) ?? null, ip: String(r.ip), locationId: int(r.location_id), locationName: String(r.location_name) },
    addresses: (typeof r.addresses === 'string' ? String(r.addresses).replace(/[{}]/g, '').split(',') : (r.addresses as string[])).filter(Boolean),
  }));
}

/** Two devices judged to be two: their pair is no longer offered (either order). */
export async function dismissPair(db: Db, olderId: number, newerId: number, userId: number): Promise<void> {
  await db.execute(sql`
    INSERT INTO device_identity_dismissals (older_id, newer_id, dismissed_by) VALUES (${olderId}, ${newerId}, ${userId})
    ON CONFLICT DO NOTHING`);
}
