/** The supply-orders module's public surface: all that other modules, jobs and plugins may use of it (issue 45). */
export { SupplyOrdersService } from './supply-orders.service.ts';
export { installReplacedOrders } from './supply-orders.install.ts';
/** The notifications' daily "supplies to order" digest. */
export { suppliesToOrderDigest } from './supply-orders.digest.ts';
