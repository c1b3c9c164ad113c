import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SERVICE_FILE_EXTENSION, SERVICE_FILE_MAX_BYTES, serviceResultSchema } from '@pagewatch/contracts/devices';
import { uploadedFile } from '../../lib/upload.ts';
import { routeTable } from '../../plugins/route-table.ts';
import type { MaintenanceService } from './maintenance.service.ts';

/** The `serialNumbers` file of a multipart upload: a .txt of at most 1 MB. */
function serialFile(req: FastifyRequest): Promise<Buffer> {
  return uploadedFile(req, {
    field: 'serialNumbers',
    extension: SERVICE_FILE_EXTENSION,
    types: /^(text\/plain|application\/octet-stream)\b/i,
    maxBytes: SERVICE_FILE_MAX_BYTES,
    keys: { missing: 'service.noFile', wrongType: 'service.notTxt', tooLarge: 'service.tooLarge', empty: 'service.emptyFile' },
  });
}

/** Service work (spec sections 2 and 7): maintenance by serial numbers file, stop for all. */
export async function serviceRoutes(root: FastifyInstance, maintenance: MaintenanceService) {
  const r = routeTable(root, ['service']);
  const access = 'BTN_DEVICE_ACTIVITY.EXECUTE';
  const upload = { consumes: ['multipart/form-data'], reply: serviceResultSchema };

  r.post('/api/service/set-active-status', access, upload, async (req, caller) => maintenance.setBySerialFile(caller, await serialFile(req), true, req.lang));
  r.post('/api/service/set-inactive-status', access, upload, async (req, caller) => maintenance.setBySerialFile(caller, await serialFile(req), false, req.lang));
  r.post('/api/service/reset-status', access, { reply: serviceResultSchema }, (req, caller) => maintenance.resetAll(caller, req.lang));
}
