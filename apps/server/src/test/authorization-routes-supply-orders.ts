import { sql } from 'drizzle-orm';
import { deviceAt, locationsSeed, type Fixture, type World } from './authorization-world.ts';

/** A device at the location whose toner is low: on the what-to-order list. */
const lowDeviceAt = async (w: World, locationId: number) => {
  const id = await deviceAt(w, locationId);
  await w.ctx.db.execute(sql`UPDATE consumables SET level = 3 WHERE device_id = ${id}`);
  return id;
};
/** An open order (made by root) of a fresh device at the location; returns the order's id. */
const orderAt = async (w: World, locationId: number): Promise<number> =>
  (await w.asRoot('POST', '/api/supply-orders', { supplies: [{ deviceId: await deviceAt(w, locationId), supplyIndex: 1 }] }))[0].id;

/** The authorisation matrix's supply orders (issue 45; see authorization-routes.ts, "ADDING A ROUTE"). */
export const SUPPLY_ORDER_ROUTES: Record<string, Fixture> = {
  'GET /api/supply-orders/suggestions': {
    kind: 'list',
    seed: async (w) => ({ inside: [await lowDeviceAt(w, w.loc.IN_CHILD)], outside: [await lowDeviceAt(w, w.loc.OUT)] }),
    request: () => ({ url: '/api/supply-orders/suggestions' }),
    rows: (b: { supplies: { deviceId: number }[] }[]) => b.flatMap((g) => g.supplies.map((s) => s.deviceId)),
  },
  // The file is the list above in another form (supply-orders.routes.test.ts checks its scope).
  'GET /api/supply-orders/suggestions/:format': { kind: 'global', request: () => ({ url: '/api/supply-orders/suggestions/csv' }) },
  'GET /api/supply-orders': {
    kind: 'list',
    seed: async (w) => ({ inside: [await orderAt(w, w.loc.IN_CHILD)], outside: [await orderAt(w, w.loc.OUT)] }),
    request: () => ({ url: '/api/supply-orders' }),
    rows: (b: { id: number }[]) => b.map((o) => o.id),
  },
  'POST /api/supply-orders': { kind: 'item', request: async (w, at) => ({ url: '/api/supply-orders', payload: { supplies: [{ deviceId: await deviceAt(w, at), supplyIndex: 1 }], reference: 'MX' } }) },
  'POST /api/supply-orders/:id/ship': { kind: 'item', request: async (w, at) => ({ url: `/api/supply-orders/${await orderAt(w, at)}/ship` }) },
  'POST /api/supply-orders/:id/cancel': { kind: 'item', request: async (w, at) => ({ url: `/api/supply-orders/${await orderAt(w, at)}/cancel` }) },
  // Figures summed over the caller's locations (consumables.accuracy.test.ts checks that they keep to them).
  'GET /api/consumables/forecast-accuracy': { kind: 'global', request: () => ({ url: '/api/consumables/forecast-accuracy' }) },
  'GET /api/supply-orders/settings': {
    kind: 'list',
    seed: locationsSeed,
    request: () => ({ url: '/api/supply-orders/settings' }),
    rows: (b: { locationId: number }[]) => b.map((s) => s.locationId),
  },
  'PUT /api/supply-orders/settings/:id': { kind: 'item', request: async (_w, at) => ({ url: `/api/supply-orders/settings/${at}`, payload: { leadDays: 10, marginDays: 5, supplierEmail: 'orders@example.com' } }) },
};
