import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { idParams } from '@pagewatch/contracts/fields';
import { pageResponseSchema } from '@pagewatch/contracts/list';
import {
  changeActivitySchema,
  deviceMergeSchema,
  deviceNotSameSchema,
  deviceSchema,
  deviceUpdateSchema,
  locationDeviceStatisticsSchema,
  messageResponseSchema,
  statisticsRowSchema,
  updateWalkResponseSchema,
} from '@pagewatch/contracts/devices';
import { translate } from '../../i18n/messages.ts';
import { routeTable } from '../../plugins/route-table.ts';
import type { DevicesService } from './devices.service.ts';
import { serveJsonLists } from '../../plugins/json-lists.ts';
import { DEVICE_LISTS } from './devices.list.ts';

const walkQuery = z.object({ ids: z.union([idParams.shape.id, z.array(idParams.shape.id).max(10_000)]).optional() });

/** Devices, their history and statistics (spec section 7). */
export async function devicesRoutes(root: FastifyInstance, devices: DevicesService) {
  const svc = devices;
  const tags = ['devices'];

  serveJsonLists(root, DEVICE_LISTS, { access: 'MNU_DEVICES.READ', tags, page: (caller, def, q) => svc.list(caller, def, q) });

  const r = routeTable(root, tags);
  const [READ, EDIT] = ['MNU_DEVICES.READ', 'MNU_DEVICES.EDIT'] as const;

  // Unknown devices' walks as a zip of `.walk` files (all in scope, or the ids given).
  r.get('/api/devices/walks', READ, { querystring: walkQuery }, async (req, caller, reply) => {
    const ids = req.query.ids === undefined ? null : [req.query.ids].flat();
    const z = await svc.walksZip(caller, ids);
    return reply
      .header('Content-Type', 'application/zip')
      .header('Content-Disposition', `attachment; filename="${z.fileName}"`)
      .header('X-Walk-Count', String(z.count))
      .header('Access-Control-Expose-Headers', 'Content-Disposition, X-Walk-Count')
      .send(z.data);
  });

  r.post('/api/devices/change-activity', EDIT, { body: changeActivitySchema, reply: messageResponseSchema }, async (req, caller) => {
    const changed = await svc.changeActivity(caller, req.body.ids, req.body.managedFlag);
    const state = { key: req.body.managedFlag ? 'devices.stateOn' : 'devices.stateOff' };
    return { message: translate(req.lang, 'devices.activityChanged', { state, count: changed }), changed };
  });

  r.get('/api/devices/:id', READ, { params: idParams, reply: deviceSchema }, (req, caller) => svc.get(caller, req.params.id));
  r.put('/api/devices/:id', EDIT, { params: idParams, body: deviceUpdateSchema, reply: deviceSchema }, (req, caller) => svc.update(caller, req.params.id, req.body));
  r.delete('/api/devices/:id', EDIT, { params: idParams }, (req, caller) => svc.remove(caller, req.params.id));

  // Identity reconciliation (issue 21): the other device's history moves into this one.
  r.post('/api/devices/:id/merge', EDIT, { params: idParams, body: deviceMergeSchema, reply: messageResponseSchema }, async (req, caller) => {
    const days = await svc.merge(caller, req.params.id, req.body.fromId);
    return { message: translate(req.lang, 'devices.merged', { days }), changed: days };
  });

  // An identity pair that is two devices after all: no longer offered for merging.
  r.post('/api/devices/:id/not-same', EDIT, { params: idParams, body: deviceNotSameSchema, reply: messageResponseSchema }, async (req, caller) => {
    await svc.notSame(caller, req.params.id, req.body.otherId);
    return { message: translate(req.lang, 'devices.notSameSaved') };
  });

  r.post('/api/dm-device-days/device/:id/update-walk', EDIT, { params: idParams, reply: updateWalkResponseSchema }, async (req, caller) => {
    const at = await svc.requestWalk(caller, req.params.id);
    return { message: translate(req.lang, 'devices.walkRequested'), requestedAt: at.toISOString() };
  });

  r.get('/api/statistics-v', READ, { reply: pageResponseSchema(statisticsRowSchema) }, async (_req, caller) => {
    const rows = await svc.statistics(caller);
    return { pageRows: rows, totalRows: rows.length };
  });

  r.get('/api/statistics/locations/:id/devices', READ, { params: idParams, reply: locationDeviceStatisticsSchema },
    (req, caller) => svc.locationStatistics(caller, req.params.id));
}
