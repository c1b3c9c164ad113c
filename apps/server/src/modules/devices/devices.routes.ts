import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { idParams } from '@pagewatch/contracts/fields';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
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
import { callerOf } from '../../plugins/access.ts';
import type { AppContext } from '../../app-context.ts';
import { serveJsonLists } from '../../plugins/json-lists.ts';
import { DEVICE_LISTS } from './devices.list.ts';

const walkQuery = z.object({ ids: z.union([idParams.shape.id, z.array(idParams.shape.id).max(10_000)]).optional() });

/** Devices, their history and statistics (spec section 7). */
export async function devicesRoutes(root: FastifyInstance, ctx: AppContext) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const svc = ctx.devices;
  const tags = ['devices'];

  serveJsonLists(root, DEVICE_LISTS, { access: 'MNU_DEVICES.READ', tags, page: (caller, def, q) => svc.list(caller, def, q) });

  // Unknown devices' walks as a zip of `.walk` files (all in scope, or the ids given).
  app.get('/api/devices/walks', {
    config: { access: 'MNU_DEVICES.READ' },
    schema: { tags, querystring: walkQuery },
  }, async (req, reply) => {
    const ids = req.query.ids === undefined ? null : [req.query.ids].flat();
    const z = await svc.walksZip(callerOf(req), ids);
    return reply
      .header('Content-Type', 'application/zip')
      .header('Content-Disposition', `attachment; filename="${z.fileName}"`)
      .header('X-Walk-Count', String(z.count))
      .header('Access-Control-Expose-Headers', 'Content-Disposition, X-Walk-Count')
      .send(z.data);
  });

  app.post('/api/devices/change-activity', {
    config: { access: 'MNU_DEVICES.EDIT' },
    schema: { tags, body: changeActivitySchema, response: { 200: messageResponseSchema } },
  }, async (req) => {
    const changed = await svc.changeActivity(callerOf(req), req.body.ids, req.body.managedFlag);
    const state = { key: req.body.managedFlag ? 'devices.stateOn' : 'devices.stateOff' };
    return { message: translate(req.lang, 'devices.activityChanged', { state, count: changed }), changed };
  });

  app.get('/api/devices/:id', {
    config: { access: 'MNU_DEVICES.READ' },
    schema: { tags, params: idParams, response: { 200: deviceSchema } },
  }, (req) => svc.get(callerOf(req), req.params.id));

  app.put('/api/devices/:id', {
    config: { access: 'MNU_DEVICES.EDIT' },
    schema: { tags, params: idParams, body: deviceUpdateSchema, response: { 200: deviceSchema } },
  }, (req) => svc.update(callerOf(req), req.params.id, req.body));

  app.delete('/api/devices/:id', {
    config: { access: 'MNU_DEVICES.EDIT' },
    schema: { tags, params: idParams },
  }, async (req, reply) => {
    await svc.remove(callerOf(req), req.params.id);
    return reply.status(204).send();
  });

  // Identity reconciliation (issue 21): the other device's history moves into this one.
  app.post('/api/devices/:id/merge', {
    config: { access: 'MNU_DEVICES.EDIT' },
    schema: { tags, params: idParams, body: deviceMergeSchema, response: { 200: messageResponseSchema } },
  }, async (req) => {
    const days = await svc.merge(callerOf(req), req.params.id, req.body.fromId);
    return { message: translate(req.lang, 'devices.merged', { days }), changed: days };
  });

  // An identity pair that is two devices after all: no longer offered for merging.
  app.post('/api/devices/:id/not-same', {
    config: { access: 'MNU_DEVICES.EDIT' },
    schema: { tags, params: idParams, body: deviceNotSameSchema, response: { 200: messageResponseSchema } },
  }, async (req) => {
    await svc.notSame(callerOf(req), req.params.id, req.body.otherId);
    return { message: translate(req.lang, 'devices.notSameSaved') };
  });

  app.post('/api/dm-device-days/device/:id/update-walk', {
    config: { access: 'MNU_DEVICES.EDIT' },
    schema: { tags, params: idParams, response: { 200: updateWalkResponseSchema } },
  }, async (req) => {
    const at = await svc.requestWalk(callerOf(req), req.params.id);
    return { message: translate(req.lang, 'devices.walkRequested'), requestedAt: at.toISOString() };
  });

  app.get('/api/statistics-v', {
    config: { access: 'MNU_DEVICES.READ' },
    schema: { tags, response: { 200: pageResponseSchema(statisticsRowSchema) } },
  }, async (req) => {
    const rows = await svc.statistics(callerOf(req));
    return { pageRows: rows, totalRows: rows.length };
  });

  app.get('/api/statistics/locations/:id/devices', {
    config: { access: 'MNU_DEVICES.READ' },
    schema: { tags, params: idParams, response: { 200: locationDeviceStatisticsSchema } },
  }, (req) => svc.locationStatistics(callerOf(req), req.params.id));
}
