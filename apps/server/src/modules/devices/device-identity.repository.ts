import { sql, type SQL } from 'drizzle-orm';
import type { IdentityKind } from '@pagewatch/contracts/devices';
import type { Db } from '../../db/client.ts';

const int = (v: unknown) => Number(v ?? 0);

export type PairDevice = { id: number; modelCode: string | null; serialNumber: string | null; ip: string; locationId: number; locationName: string };
export type StoredPair = { kind: IdentityKind; older: PairDevice; newer: PairDevice };

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
      SELECT DISTINCT ON (older, newer) kind, older, newer FROM pairs ORDER BY older, newer, rank LIMIT ${MAX_PAIRS}
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
  return (res.rows as Record<string, unknown>[]).map((r) => ({ kind: r.kind as IdentityKind, older: device(r, 'a'), newer: device(r, 'b') }));
}

