import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { idParam, idParams } from '@pagewatch/contracts/fields';
import {
  billingRunDetailSchema, billingRunInputSchema, billingRunSchema, contractDeviceChangeSchema, contractDeviceInputSchema, contractDeviceSchema, contractInputSchema,
  contractSchema, contractsQuerySchema, readOnQuerySchema, readOnSchema, runFileParams, runReviewInputSchema,
} from '@pagewatch/contracts/billing';
import { routeTable } from '../../plugins/route-table.ts';
import { sendFile } from '../../plugins/file-reply.ts';
import type { AppContext } from '../../app-context.ts';

const deviceParams = z.object({ id: idParam, deviceId: idParam });
const devices = z.array(contractDeviceSchema);

/**
 * Contracts and billing runs (issue 54): MNU_BILLING.READ to see them and their files,
 * MNU_BILLING.EDIT to make and change contracts and to run, review and close; always within
 * the caller's locations (a contract outside them is not found).
 */
export async function contractsRoutes(root: FastifyInstance, ctx: Pick<AppContext, 'config' | 'contracts' | 'billingRuns'>) {
  const r = routeTable(root, ['billing']);
  const read = 'MNU_BILLING.READ';
  const edit = 'MNU_BILLING.EDIT';
  const { contracts, billingRuns: runs } = ctx;

  r.get('/api/contracts', read, { summary: 'The contracts of the caller\'s locations, or of one of them and those below it', querystring: contractsQuerySchema, reply: z.array(contractSchema) },
    (req, caller) => contracts.list(caller, req.query.location));
  r.post('/api/contracts', edit, { summary: 'Makes a contract of a location', body: contractInputSchema, reply: contractSchema },
    (req, caller) => contracts.create(caller, req.body));
  // A device's read on or before a day, for ERPs that ask "most recent prior to" (docs/billing.md).
  r.get('/api/contracts/reads', read, { summary: 'A device\'s read (by serial) on or before a day: the last day read, each meter with its corrections', querystring: readOnQuerySchema, reply: readOnSchema },
    (req, caller) => contracts.readOn(caller, req.query.serial, req.query.date));
  r.get('/api/contracts/:id', read, { summary: 'A contract', params: idParams, reply: contractSchema },
    (req, caller) => contracts.get(caller, req.params.id));
  r.put('/api/contracts/:id', edit, { summary: 'Changes a contract (its runs keep the figures they were closed with)', params: idParams, body: contractInputSchema, reply: contractSchema },
    (req, caller) => contracts.update(caller, req.params.id, req.body));
  r.delete('/api/contracts/:id', edit, { summary: 'Deletes a contract with its devices and open runs; 409 if it has closed runs (their figures are kept)', params: idParams },
    (req, caller) => contracts.remove(caller, req.params.id));

  r.get('/api/contracts/:id/devices', read, { summary: 'A contract\'s devices by serial, with the days they joined and left', params: idParams, reply: devices },
    (req, caller) => contracts.devices(caller, req.params.id));
  r.post('/api/contracts/:id/devices', edit, { summary: 'Adds a device (a serial of the contract\'s locations) from a day', params: idParams, body: contractDeviceInputSchema, reply: devices },
    (req, caller) => contracts.addDevice(caller, req.params.id, req.body));
  r.put('/api/contracts/:id/devices/:deviceId', edit, { summary: 'Sets the day a device left the contract (null: still on it) and its equipment id', params: deviceParams, body: contractDeviceChangeSchema, reply: devices },
    (req, caller) => contracts.changeDevice(caller, req.params.id, req.params.deviceId, req.body));
  r.deleteFrom('/api/contracts/:id/devices/:deviceId', edit, { summary: 'Removes a device from the contract (closed runs keep it)', params: deviceParams, reply: devices },
    (req, caller) => contracts.removeDevice(caller, req.params.id, req.params.deviceId));

  r.get('/api/contracts/:id/runs', read, { summary: 'A contract\'s billing runs, the latest period first', params: idParams, reply: z.array(billingRunSchema) },
    (req, caller) => runs.list(caller, req.params.id));
  r.post('/api/contracts/:id/runs', edit, { summary: 'Makes and works out the billing run of a period (from a billing day)', params: idParams, body: billingRunInputSchema, reply: billingRunDetailSchema },
    (req, caller) => runs.create(caller, req.params.id, req.body.periodFrom));
  r.get('/api/billing-runs/:id', read, { summary: 'A billing run with its devices, their boundary reads and amounts', params: idParams, reply: billingRunDetailSchema },
    (req, caller) => runs.detail(caller, req.params.id));
  r.post('/api/billing-runs/:id/rerun', edit, { summary: 'Works an open run out again from the history as it is now; 409 for a closed run', params: idParams, reply: billingRunDetailSchema },
    (req, caller) => runs.rerun(caller, req.params.id));
  r.post('/api/billing-runs/:id/devices/:deviceId/review', edit, { summary: 'Marks a flagged device of an open run reviewed, with a note', params: deviceParams, body: runReviewInputSchema, reply: billingRunDetailSchema },
    (req, caller) => runs.review(caller, req.params.id, req.params.deviceId, req.body.note));
  r.post('/api/billing-runs/:id/close', edit, { summary: 'Closes a run whose flagged devices are all reviewed: its figures never change again', params: idParams, reply: billingRunDetailSchema },
    (req, caller) => runs.close(caller, req.params.id, ctx.config.language));
  r.get('/api/billing-runs/:id/files/:format', read, { summary: 'The run as a CSV or XLSX file in the caller\'s language, or the ERP meter-import CSV (erp)', params: runFileParams },
    async (req, caller, reply) => {
      const file = await runs.file(caller, req.params.id, req.params.format, req.lang);
      return sendFile(reply, file, `billing-run-${req.params.id}.${req.params.format === 'xlsx' ? 'xlsx' : 'csv'}`);
    });
}
