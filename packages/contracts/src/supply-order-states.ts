// No zod here: the console's start (statuses' labels and colours) and messages.ts read these.

/**
 * An order's states (issue 45), each defined once with its label key and colour. "Suggested" is
 * not stored: it is a supply on the what-to-order list without an open order. ORDERED and
 * SHIPPED are open (at most one per device supply, enforced by a unique index); INSTALLED is set
 * by the supply's replacement event, CANCELLED by a user.
 */
export const SUPPLY_ORDER_STATES = {
  ORDERED: { labelKey: 'supplyOrders.state.ORDERED', color: 'blue', open: true },
  SHIPPED: { labelKey: 'supplyOrders.state.SHIPPED', color: 'violet', open: true },
  INSTALLED: { labelKey: 'supplyOrders.state.INSTALLED', color: 'green', open: false },
  CANCELLED: { labelKey: 'supplyOrders.state.CANCELLED', color: 'gray', open: false },
} as const;
export type SupplyOrderState = keyof typeof SUPPLY_ORDER_STATES;
export const SUPPLY_ORDER_STATE_CODES = Object.keys(SUPPLY_ORDER_STATES) as SupplyOrderState[];
export const OPEN_ORDER_STATES = SUPPLY_ORDER_STATE_CODES.filter((s) => SUPPLY_ORDER_STATES[s].open);

/** A location's lead time and margin when it names none (days). */
export const DEFAULT_LEAD_DAYS = 7;
export const DEFAULT_MARGIN_DAYS = 7;
/** Limits of the order fields (security.md, invariant 8). */
export const SUPPLY_ORDER_LIMITS = { days: 365, reference: 100, email: 254, supplies: 1000 } as const;
