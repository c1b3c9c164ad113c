import type { FastifyInstance, FastifyRequest } from 'fastify';
import { idParams } from '@pagewatch/contracts/fields';
import { pageResponseSchema } from '@pagewatch/contracts/list';
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
import { uploadedFile } from '../../lib/upload.ts';
import { routeTable } from '../../plugins/route-table.ts';
import { assertDefaultAdmin } from '../../lib/caller.ts';
import type { LicensesService } from './licenses.service.ts';

/** The `licenseFile` of a multipart upload: a .lic of at most 64 KB. */
function licenseFile(req: FastifyRequest): Promise<Buffer> {
  return uploadedFile(req, {
    field: 'licenseFile',
    extension: LICENSE_FILE_EXTENSION,
    maxBytes: LICENSE_FILE_MAX_BYTES,
    keys: { missing: 'licenses.noFile', wrongType: 'licenses.notLic', tooLarge: 'licenses.tooLarge' },
  });
}

/**
 * Licenses (spec section 7). Reads need MNU_LICENSE.READ and answer for the caller's locations;
 * changes are the default administrator's (the service checks it before reading any upload).
 */
export async function licensesRoutes(root: FastifyInstance, licenses: LicensesService) {
  const r = routeTable(root, ['licenses']);
  const svc = licenses;
  const [READ, EDIT] = ['MNU_LICENSE.READ', 'MNU_LICENSE.EDIT'] as const;

  r.get('/api/instance-license/', READ, { reply: instanceLicenseSchema }, (req, caller) => svc.instance(caller, req.lang));
  r.get('/api/instance-license/request/', EDIT, { querystring: licenseRequestQuerySchema, reply: licenseRequestSchema }, async (req, caller, reply) => {
    const body = await svc.request(caller, req.query.companyName);
    reply.header('Content-Disposition', 'attachment; filename="lic-request.json"');
    return body;
  });
  r.post('/api/instance-license', EDIT, { consumes: ['multipart/form-data'], reply: instanceLicenseSchema }, async (req, caller) => {
    // Before the upload is read: a caller who may not install learns nothing about the file.
    assertDefaultAdmin(caller);
    return svc.install(caller, await licenseFile(req), req.lang);
  });

  r.list('/api/user-licenses/page', READ, licenseListRowSchema, (req, caller) => svc.list(caller, req.query));
  r.get('/api/user-licenses/:id', READ, { params: idParams, reply: licenseSchema }, (req, caller) => svc.get(caller, req.params.id));
  r.get('/api/user-licenses-relevant/', READ, { reply: pageResponseSchema(licenseSchema) }, (_req, caller) => svc.inForce(caller));
  r.get('/api/user-locations/managed-license', READ, { reply: pageResponseSchema(licensableLocationSchema) }, (_req, caller) => svc.licensable(caller));
  r.get('/api/location-devices-v/:id', READ, { params: idParams, reply: locationDeviceCountsSchema }, (req, caller) => svc.locationDevices(caller, req.params.id));
  r.post('/api/licenses', 'BTN_LICENSE_UPDATE.EXECUTE', { body: licenseInputSchema, reply: licenseSchema }, (req, caller) => svc.create(caller, req.body));
  r.put('/api/licenses/:id', EDIT, { params: idParams, body: licenseInputSchema, reply: licenseSchema }, (req, caller) => svc.update(caller, req.params.id, req.body));
  r.delete('/api/licenses/:id', EDIT, { params: idParams }, (req, caller) => svc.remove(caller, req.params.id));
}
