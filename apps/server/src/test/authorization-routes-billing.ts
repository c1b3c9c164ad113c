import { sql } from 'drizzle-orm';
import { deviceAt, unique, type Fixture, type World } from './authorization-world.ts';

const contractPayload = (locationId: number) => ({
  locationId, name: unique('contract'), billingDay: 1, period: 'MONTHLY', currency: 'EUR', baseFee: '10.00', startsOn: '2026-01-01', endsOn: null,
  prices: [{ meter: 'total', price: '0.01', includedPages: 0 }],
});
/** A contract at the location, made by root. */
const contractAt = async (w: World, locationId: number): Promise<number> => (await w.asRoot('POST', '/api/contracts', contractPayload(locationId))).id;
/** The serial of a fresh device at the location. */
const serialAt = async (w: World, locationId: number): Promise<string> => {
  const id = await deviceAt(w, locationId);
  const res = await w.ctx.db.execute(sql`SELECT serial_number FROM devices WHERE id = ${id}`);
  return String((res.rows[0] as { serial_number: string }).serial_number);
};
/** A contract with one device, and that device's contract entry. */
const contractDeviceAt = async (w: World, locationId: number): Promise<{ contract: number; device: number }> => {
  const contract = await contractAt(w, locationId);
  const [d] = await w.asRoot('POST', `/api/contracts/${contract}/devices`, { serialNumber: await serialAt(w, locationId), joinedOn: '2026-01-01' });
  return { contract, device: d.id };
};
/** An open run of a contract with one device (`flagged`: with a jump read in the period, to review); its id and its device's. */
const runAt = async (w: World, locationId: number, flagged = false): Promise<{ run: number; device: number }> => {
  const { contract } = await contractDeviceAt(w, locationId);
  if (flagged) {
    await w.ctx.db.execute(sql`INSERT INTO meter_flags (device_id, at, kind, meter, previous_value, value)
      SELECT d.id, '2026-10-15T10:00:00Z', 'JUMP', 'total', 1, 2 FROM devices d JOIN contract_devices cd ON lower(cd.serial_number) = lower(d.serial_number) WHERE cd.contract_id = ${contract}`);
  }
  const run = await w.asRoot('POST', `/api/contracts/${contract}/runs`, { periodFrom: '2026-10-01' });
  return { run: run.id, device: run.devices[0].id };
};

/** The authorisation matrix's contracts and billing runs (issue 54; see authorization-routes.ts, "ADDING A ROUTE"). */
export const BILLING_ROUTES: Record<string, Fixture> = {
  'GET /api/contracts': {
    kind: 'list',
    seed: async (w) => ({ inside: [await contractAt(w, w.loc.IN_CHILD)], outside: [await contractAt(w, w.loc.OUT)] }),
    request: () => ({ url: '/api/contracts' }),
    rows: (b: { id: number }[]) => b.map((c) => c.id),
  },
  'POST /api/contracts': { kind: 'item', request: async (_w, at) => ({ url: '/api/contracts', payload: contractPayload(at) }) },
  'GET /api/contracts/reads': { kind: 'item', request: async (w, at) => ({ url: `/api/contracts/reads?serial=${await serialAt(w, at)}&date=2099-01-01` }) },
  'GET /api/contracts/:id': { kind: 'item', request: async (w, at) => ({ url: `/api/contracts/${await contractAt(w, at)}` }) },
  'PUT /api/contracts/:id': { kind: 'item', request: async (w, at) => ({ url: `/api/contracts/${await contractAt(w, at)}`, payload: contractPayload(at) }) },
  'DELETE /api/contracts/:id': { kind: 'item', ok: 204, request: async (w, at) => ({ url: `/api/contracts/${await contractAt(w, at)}` }) },
  'GET /api/contracts/:id/devices': { kind: 'item', request: async (w, at) => ({ url: `/api/contracts/${(await contractDeviceAt(w, at)).contract}/devices` }) },
  'POST /api/contracts/:id/devices': { kind: 'item', request: async (w, at) => ({ url: `/api/contracts/${await contractAt(w, at)}/devices`, payload: { serialNumber: await serialAt(w, at), joinedOn: '2026-01-01' } }) },
  'PUT /api/contracts/:id/devices/:deviceId': {
    kind: 'item',
    request: async (w, at) => {
      const { contract, device } = await contractDeviceAt(w, at);
      return { url: `/api/contracts/${contract}/devices/${device}`, payload: { leftOn: '2026-12-31' } };
    },
  },
  'DELETE /api/contracts/:id/devices/:deviceId': {
    kind: 'item',
    ok: 200,
    request: async (w, at) => {
      const { contract, device } = await contractDeviceAt(w, at);
      return { url: `/api/contracts/${contract}/devices/${device}` };
    },
  },
  'GET /api/contracts/:id/runs': { kind: 'item', request: async (w, at) => ({ url: `/api/contracts/${await contractAt(w, at)}/runs` }) },
  'POST /api/contracts/:id/runs': { kind: 'item', request: async (w, at) => ({ url: `/api/contracts/${(await contractDeviceAt(w, at)).contract}/runs`, payload: { periodFrom: '2026-10-01' } }) },
  'GET /api/billing-runs/:id': { kind: 'item', request: async (w, at) => ({ url: `/api/billing-runs/${(await runAt(w, at)).run}` }) },
  'POST /api/billing-runs/:id/rerun': { kind: 'item', request: async (w, at) => ({ url: `/api/billing-runs/${(await runAt(w, at)).run}/rerun` }) },
  'POST /api/billing-runs/:id/devices/:deviceId/review': {
    kind: 'item',
    request: async (w, at) => {
      const { run, device } = await runAt(w, at, true);
      return { url: `/api/billing-runs/${run}/devices/${device}/review`, payload: { note: 'matrix' } };
    },
  },
  'POST /api/billing-runs/:id/close': { kind: 'item', request: async (w, at) => ({ url: `/api/billing-runs/${(await runAt(w, at)).run}/close` }) },
  'GET /api/billing-runs/:id/files/:format': { kind: 'item', request: async (w, at) => ({ url: `/api/billing-runs/${(await runAt(w, at)).run}/files/erp` }) },
};
