import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { idParams } from '@pagewatch/contracts/fields';
import { pageResponseSchema } from '@pagewatch/contracts/list';
import { locationPlanSchema, planDeviceSchema, planPlacementsInputSchema, ROOM_PLAN_MAX_BYTES } from '@pagewatch/contracts/dictionaries';
import { routeTable } from '../../plugins/route-table.ts';
import { AppError, invalid } from '../../lib/app-error.ts';
import type { LocationsService } from './locations.service.ts';

const locationRow = z.object({ id: z.number(), code: z.string(), name: z.string(), parentId: z.number().nullable() });
const agentRow = z.object({ id: z.number(), name: z.string(), status: z.string(), lastContactAt: z.string().nullable(), version: z.string().nullable() });

/** An SVG plan may only draw: no script runs even if something slipped past the sanitiser. */
const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'";

/** Locations are visible to every signed-in user, limited to their scope; the item form is under /dictionary-items. */
export async function locationsRoutes(root: FastifyInstance, locations: LocationsService) {
  const r = routeTable(root, ['locations']);
  const svc = locations;

  r.get('/api/user-locations/', 'user', { reply: pageResponseSchema(locationRow) }, (_req, caller) => svc.userLocations(caller, { page: '1000,1' }));
  r.list('/api/user-locations/page', 'user', locationRow, (req, caller) => svc.userLocations(caller, req.query));
  r.get('/api/locations/:id/agents', 'user', { params: idParams, reply: pageResponseSchema(agentRow) }, (req, caller) => svc.agents(caller, req.params.id));
  r.get('/api/locations/:id/devices', 'user', { params: idParams, reply: pageResponseSchema(planDeviceSchema) }, (req, caller) => svc.devices(caller, req.params.id));
  r.get('/api/locations/:id/plan', 'user', { params: idParams, reply: locationPlanSchema }, (req, caller) => svc.plan(caller, req.params.id));

  r.get('/api/locations/:id/plan/image', 'user', { params: idParams }, async (req, caller, reply) => {
    const plan = await svc.planImage(caller, req.params.id);
    reply.header('Content-Type', plan.contentType).header('X-Content-Type-Options', 'nosniff').header('Cache-Control', 'private, no-cache');
    if (plan.contentType === 'image/svg+xml') reply.header('Content-Security-Policy', SVG_CSP);
    return reply.send(plan.data);
  });

  r.post('/api/locations/:id/plan', 'PAGE_LOCATION.EDIT', { params: idParams, consumes: ['multipart/form-data'], reply: locationPlanSchema }, async (req, caller) => {
    if (!req.isMultipart()) throw invalid('file', 'location.planMissing');
    const file = await req.file({ limits: { fileSize: ROOM_PLAN_MAX_BYTES } });
    if (!file) throw invalid('file', 'location.planMissing');
    let data: Buffer;
    try {
      data = await file.toBuffer();
    } catch (err) {
      if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('TOO_LARGE', { key: 'location.planTooLarge' });
      throw err;
    }
    return svc.uploadPlan(caller, req.params.id, data);
  });

  r.delete('/api/locations/:id/plan', 'PAGE_LOCATION.EDIT', { params: idParams }, (req, caller) => svc.deletePlan(caller, req.params.id));
  r.put('/api/locations/:id/plan/placements', 'PAGE_LOCATION.EDIT', { params: idParams, body: planPlacementsInputSchema, reply: locationPlanSchema },
    (req, caller) => svc.savePlacements(caller, req.params.id, req.body.placements));
}
