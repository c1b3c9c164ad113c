import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParams } from '@pagewatch/contracts/fields';
import { listQuerySchema, pageResponseSchema } from '@pagewatch/contracts/list';
import {
  instanceLicenseSchema,
  LICENSE_FILE_EXTENSION,
  LICENSE_FILE_MAX_BYTES,
  licensableLocationSchema,
  licenseInputSchema,
  licenseListRowSchema,
  licenseRequestQuerySchema,
  licenseRequestSchema,
  licenseSchema,
  locationDeviceCountsSchema,
} from '@pagewatch/contracts/licenses';
import { invalid } from '../../lib/app-error.ts';
import { uploadedFile } from '../../lib/upload.ts';
import { callerOf } from '../../plugins/access.ts';
import { assertDefaultAdmin } from '../../lib/caller.ts';
import type { AppContext } from '../../app-context.ts';

/** The `licenseFile` of a multipart upload: a .lic of at most 64 KB. */
async function licenseFile(req: FastifyRequest): Promise<Buffer> {
  const data = await uploadedFile(req, {
    field: 'licenseFile',
    extension: LICENSE_FILE_EXTENSION,
    maxBytes: LICENSE_FILE_MAX_BYTES,
    keys: { missing: 'licenses.noFile', wrongType: 'licenses.notLic', tooLarge: 'licenses.tooLarge' },
  });
  if (data.length === 0) throw invalid('licenseFile', 'licenses.noFile');
  return data;
}

/**
 * Licenses (spec section 7). Reads need MNU_LICENSE.READ and answer for the caller's locations;
 * changes are the default administrator's (the service checks it before reading any upload).
 */
export async function licensesRoutes(root: FastifyInstance, ctx: AppContext) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['licenses'];
  const svc = ctx.licenses;

  app.get('/api/instance-license/', {
    config: { access: 'MNU_LICENSE.READ' },
    schema: { tags, response: { 200: instanceLicenseSchema } },
  }, (req) => svc.instance(callerOf(req), req.lang));

  app.get('/api/instance-license/request/', {
    config: { access: 'MNU_LICENSE.EDIT' },
    schema: { tags, querystring: licenseRequestQuerySchema, response: { 200: licenseRequestSchema } },
  }, async (req, reply) => {
    const body = await svc.request(callerOf(req), req.query.companyName);
    reply.header('Content-Disposition', 'attachment; filename="lic-request.json"');
    return body;
  });

  app.post('/api/instance-license', {
    config: { access: 'MNU_LICENSE.EDIT' },
    schema: { tags, consumes: ['multipart/form-data'], response: { 200: instanceLicenseSchema } },
  }, async (req) => {
    // Before the upload is read: a caller who may not install learns nothing about the file.
    assertDefaultAdmin(callerOf(req));
    return svc.install(callerOf(req), await licenseFile(req), req.lang);
  });

  app.get('/api/user-licenses/page', {
    config: { access: 'MNU_LICENSE.READ' },
    schema: { tags, querystring: listQuerySchema, response: { 200: pageResponseSchema(licenseListRowSchema) } },
  }, (req) => svc.list(callerOf(req), req.query));

  app.get('/api/user-licenses/:id', {
    config: { access: 'MNU_LICENSE.READ' },
    schema: { tags, params: idParams, response: { 200: licenseSchema } },
  }, (req) => svc.get(callerOf(req), req.params.id));

  app.get('/api/user-licenses-relevant/', {
    config: { access: 'MNU_LICENSE.READ' },
    schema: { tags, response: { 200: pageResponseSchema(licenseSchema) } },
  }, (req) => svc.inForce(callerOf(req)));

  app.get('/api/user-locations/managed-license', {
    config: { access: 'MNU_LICENSE.READ' },
    schema: { tags, response: { 200: pageResponseSchema(licensableLocationSchema) } },
  }, (req) => svc.licensable(callerOf(req)));

  app.get('/api/location-devices-v/:id', {
    config: { access: 'MNU_LICENSE.READ' },
    schema: { tags, params: idParams, response: { 200: locationDeviceCountsSchema } },
  }, (req) => svc.locationDevices(callerOf(req), req.params.id));

  app.post('/api/licenses', {
    config: { access: 'BTN_LICENSE_UPDATE.EXECUTE' },
    schema: { tags, body: licenseInputSchema, response: { 200: licenseSchema } },
  }, (req) => svc.create(callerOf(req), req.body));

  app.put('/api/licenses/:id', {
    config: { access: 'MNU_LICENSE.EDIT' },
    schema: { tags, params: idParams, body: licenseInputSchema, response: { 200: licenseSchema } },
  }, (req) => svc.update(callerOf(req), req.params.id, req.body));

  app.delete('/api/licenses/:id', {
    config: { access: 'MNU_LICENSE.EDIT' },
    schema: { tags, params: idParams },
  }, async (req, reply) => {
    await svc.remove(callerOf(req), req.params.id);
    return reply.status(204).send();
  });
}
