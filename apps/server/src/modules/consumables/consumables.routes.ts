import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { serveJsonLists } from '../../plugins/json-lists.ts';
import { CONSUMABLE_LISTS } from './consumables.list.ts';

/** The consumables grid and one device's consumables (spec section 7): read with the devices menu. */
export async function consumablesRoutes(app: FastifyInstance, ctx: AppContext) {
  serveJsonLists(app, CONSUMABLE_LISTS, { access: 'MNU_DEVICES.READ', tags: ['consumables'], page: (caller, def, q) => ctx.consumables.list(caller, def, q) });
}
