import type { FastifyInstance } from 'fastify';
import { idParams } from '@pagewatch/contracts/fields';
import { networkRangeInputSchema, networkRangeListRowSchema, networkRangeSchema } from '@pagewatch/contracts/network-ranges';
import { routeTable } from '../../plugins/route-table.ts';
import type { NetworkRangesService } from './network-ranges.service.ts';

/** Network ranges (grants MNU_NETWORK_RANGES). */
export async function networkRangesRoutes(root: FastifyInstance, networkRanges: NetworkRangesService) {
  const r = routeTable(root, ['network ranges']);
  const svc = networkRanges;
  const pages = ['/api/network-ranges', '/api/network-ranges/page', '/api/network-ranges-v', '/api/network-ranges-v/page'];

  r.list(pages, 'MNU_NETWORK_RANGES.READ', networkRangeListRowSchema, (req, caller) => svc.list(caller, req.query));
  r.get('/api/network-ranges/:id', 'MNU_NETWORK_RANGES.READ', { params: idParams, reply: networkRangeSchema }, (req, caller) => svc.get(caller, req.params.id));
  r.post('/api/network-ranges', 'MNU_NETWORK_RANGES.EDIT', { body: networkRangeInputSchema, reply: networkRangeSchema }, (req, caller) => svc.create(caller, req.body));
  r.put('/api/network-ranges/:id', 'MNU_NETWORK_RANGES.EDIT', { params: idParams, body: networkRangeInputSchema, reply: networkRangeSchema },
    (req, caller) => svc.update(caller, req.params.id, req.body));
  r.delete('/api/network-ranges/:id', 'MNU_NETWORK_RANGES.EDIT', { params: idParams }, (req, caller) => svc.remove(caller, req.params.id));
}
