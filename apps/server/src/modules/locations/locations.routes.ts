import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { idParams } from '@pagewatch/contracts/fields';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { listQuerySchema, pageResponseSchema } from '@pagewatch/contracts/list';
import { locationPlanSchema, planDeviceSchema, planPlacementsInputSchema, ROOM_PLAN_MAX_BYTES } from '@pagewatch/contracts/dictionaries';
import { callerOf } from '../../plugins/access.ts';
import { AppError, invalid } from '../../lib/app-error.ts';
import type { AppContext } from '../../app-context.ts';

const locationRow = z.object({ id: z.number(), code: z.string(), name: z.string(), parentId: z.number().nullable() });
const agentRow = z.object({ id: z.number(), name: z.string(), status: z.string(), lastContactAt: z.string().nullable(), version: z.string().nullable() });

/** An SVG plan may only draw: no script runs even if something slipped past the sanitiser. */
const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'";

/** Locations are visible to every signed-in user, limited to their scope; the item form is under /dictionary-items. */
export async function locationsRoutes(root: FastifyInstance, ctx: AppContext) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['locations'];
  const svc = ctx.locations;

  app.get('/api/user-locations/', {
    config: { access: 'user' },
    schema: { tags, response: { 200: pageResponseSchema(locationRow) } },
  }, (req) => svc.userLocations(callerOf(req), { page: '1000,1' }));

  app.get('/api/user-locations/page', {
    config: { access: 'user' },
    schema: { tags, querystring: listQuerySchema, response: { 200: pageResponseSchema(locationRow) } },
  }, (req) => svc.userLocations(callerOf(req), req.query));

  app.get('/api/locations/:id/agents', {
    config: { access: 'user' },
    schema: { tags, params: idParams, response: { 200: pageResponseSchema(agentRow) } },
  }, (req) => svc.agents(callerOf(req), req.params.id));

  app.get('/api/locations/:id/devices', {
    config: { access: 'user' },
    schema: { tags, params: idParams, response: { 200: pageResponseSchema(planDeviceSchema) } },
  }, (req) => svc.devices(callerOf(req), req.params.id));

  app.get('/api/locations/:id/plan', {
    config: { access: 'user' },
    schema: { tags, params: idParams, response: { 200: locationPlanSchema } },
  }, (req) => svc.plan(callerOf(req), req.params.id));

  app.get('/api/locations/:id/plan/image', {
    config: { access: 'user' },
    schema: { tags, params: idParams },
  }, async (req, reply) => {
    const plan = await svc.planImage(callerOf(req), req.params.id);
    reply.header('Content-Type', plan.contentType).header('X-Content-Type-Options', 'nosniff').header('Cache-Control', 'private, no-cache');
    if (plan.contentType === 'image/svg+xml') reply.header('Content-Security-Policy', SVG_CSP);
    return reply.send(plan.data);
  });

  app.post('/api/locations/:id/plan', {
    config: { access: 'PAGE_LOCATION.EDIT' },
    schema: { tags, params: idParams, consumes: ['multipart/form-data'], response: { 200: locationPlanSchema } },
  }, async (req) => {
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
    return svc.uploadPlan(callerOf(req), req.params.id, data);
  });

  app.delete('/api/locations/:id/plan', {
    config: { access: 'PAGE_LOCATION.EDIT' },
    schema: { tags, params: idParams },
  }, async (req, reply) => {
    await svc.deletePlan(callerOf(req), req.params.id);
    return reply.status(204).send();
  });

  app.put('/api/locations/:id/plan/placements', {
    config: { access: 'PAGE_LOCATION.EDIT' },
    schema: { tags, params: idParams, body: planPlacementsInputSchema, response: { 200: locationPlanSchema } },
  }, (req) => svc.savePlacements(callerOf(req), req.params.id, req.body.placements));
}
