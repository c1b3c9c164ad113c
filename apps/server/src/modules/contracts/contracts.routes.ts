import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParam, idParams } from '@pagewatch/contracts/fields';
import {
  billingRunDetailSchema, billingRunInputSchema, billingRunSchema, contractDeviceChangeSchema, contractDeviceInputSchema, contractDeviceSchema, contractInputSchema,
  contractSchema, contractsQuerySchema, readOnQuerySchema, readOnSchema, runFileParams, runReviewInputSchema,
} from '@pagewatch/contracts/billing';
import { callerOf } from '../../plugins/access.ts';
import type { AppContext } from '../../app-context.ts';

const deviceParams = z.object({ id: idParam, deviceId: idParam });

/**
 * Contracts and billing runs (issue 54): MNU_BILLING.READ to see them and their files,
 * MNU_BILLING.EDIT to make and change contracts and to run, review and close; always within
 * the caller's locations (a contract outside them is not found).
 */
export async function contractsRoutes(root: FastifyInstance, ctx: AppContext) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['billing'];
  const read = { access: 'MNU_BILLING.READ' } as const;
  const edit = { access: 'MNU_BILLING.EDIT' } as const;

  app.get('/api/contracts', {
    config: read,
    schema: { tags, summary: 'The contracts of the caller\'s locations, or of one of them and those below it', querystring: contractsQuerySchema, response: { 200: z.array(contractSchema) } },
  }, (req) => ctx.contracts.list(callerOf(req), req.query.location));

  app.post('/api/contracts', {
    config: edit,
    schema: { tags, summary: 'Makes a contract of a location', body: contractInputSchema, response: { 200: contractSchema } },
  }, (req) => ctx.contracts.create(callerOf(req), req.body));

  // A device's read on or before a day, for ERPs that ask "most recent prior to" (docs/billing.md).
  app.get('/api/contracts/reads', {
    config: read,
    schema: { tags, summary: 'A device\'s read (by serial) on or before a day: the last day read, each meter with its corrections', querystring: readOnQuerySchema, response: { 200: readOnSchema } },
  }, (req) => ctx.contracts.readOn(callerOf(req), req.query.serial, req.query.date));

  app.get('/api/contracts/:id', {
    config: read,
    schema: { tags, summary: 'A contract', params: idParams, response: { 200: contractSchema } },
  }, (req) => ctx.contracts.get(callerOf(req), req.params.id));

  app.put('/api/contracts/:id', {
    config: edit,
    schema: { tags, summary: 'Changes a contract (its runs keep the figures they were closed with)', params: idParams, body: contractInputSchema, response: { 200: contractSchema } },
  }, (req) => ctx.contracts.update(callerOf(req), req.params.id, req.body));

  app.delete('/api/contracts/:id', {
    config: edit,
    schema: { tags, summary: 'Deletes a contract with its devices and runs', params: idParams },
  }, async (req, reply) => {
    await ctx.contracts.remove(callerOf(req), req.params.id);
    return reply.code(204).send();
  });

  app.get('/api/contracts/:id/devices', {
    config: read,
    schema: { tags, summary: 'A contract\'s devices by serial, with the days they joined and left', params: idParams, response: { 200: z.array(contractDeviceSchema) } },
  }, (req) => ctx.contracts.devices(callerOf(req), req.params.id));

  app.post('/api/contracts/:id/devices', {
    config: edit,
    schema: { tags, summary: 'Adds a device (a serial of the contract\'s locations) from a day', params: idParams, body: contractDeviceInputSchema, response: { 200: z.array(contractDeviceSchema) } },
  }, (req) => ctx.contracts.addDevice(callerOf(req), req.params.id, req.body));

  app.put('/api/contracts/:id/devices/:deviceId', {
    config: edit,
    schema: { tags, summary: 'Sets the day a device left the contract (null: still on it) and its equipment id', params: deviceParams, body: contractDeviceChangeSchema, response: { 200: z.array(contractDeviceSchema) } },
  }, (req) => ctx.contracts.changeDevice(callerOf(req), req.params.id, req.params.deviceId, req.body));

  app.delete('/api/contracts/:id/devices/:deviceId', {
    config: edit,
    schema: { tags, summary: 'Removes a device from the contract (closed runs keep it)', params: deviceParams, response: { 200: z.array(contractDeviceSchema) } },
  }, (req) => ctx.contracts.removeDevice(callerOf(req), req.params.id, req.params.deviceId));

  app.get('/api/contracts/:id/runs', {
    config: read,
    schema: { tags, summary: 'A contract\'s billing runs, the latest period first', params: idParams, response: { 200: z.array(billingRunSchema) } },
  }, (req) => ctx.billingRuns.list(callerOf(req), req.params.id));

  app.post('/api/contracts/:id/runs', {
    config: edit,
    schema: { tags, summary: 'Makes and works out the billing run of a period (from a billing day)', params: idParams, body: billingRunInputSchema, response: { 200: billingRunDetailSchema } },
  }, (req) => ctx.billingRuns.create(callerOf(req), req.params.id, req.body.periodFrom));

  app.get('/api/billing-runs/:id', {
    config: read,
    schema: { tags, summary: 'A billing run with its devices, their boundary reads and amounts', params: idParams, response: { 200: billingRunDetailSchema } },
  }, (req) => ctx.billingRuns.detail(callerOf(req), req.params.id));

  app.post('/api/billing-runs/:id/rerun', {
    config: edit,
    schema: { tags, summary: 'Works an open run out again from the history as it is now; 409 for a closed run', params: idParams, response: { 200: billingRunDetailSchema } },
  }, (req) => ctx.billingRuns.rerun(callerOf(req), req.params.id));

  app.post('/api/billing-runs/:id/devices/:deviceId/review', {
    config: edit,
    schema: { tags, summary: 'Marks a flagged device of an open run reviewed, with a note', params: deviceParams, body: runReviewInputSchema, response: { 200: billingRunDetailSchema } },
  }, (req) => ctx.billingRuns.review(callerOf(req), req.params.id, req.params.deviceId, req.body.note));

  app.post('/api/billing-runs/:id/close', {
    config: edit,
    schema: { tags, summary: 'Closes a run whose flagged devices are all reviewed: its figures never change again', params: idParams, response: { 200: billingRunDetailSchema } },
  }, (req) => ctx.billingRuns.close(callerOf(req), req.params.id, ctx.config.language));

  app.get('/api/billing-runs/:id/files/:format', {
    config: read,
    schema: { tags, summary: 'The run as a CSV or XLSX file in the caller\'s language, or the ERP meter-import CSV (erp)', params: runFileParams },
  }, async (req, reply) => {
    const file = await ctx.billingRuns.file(callerOf(req), req.params.id, req.params.format, req.lang);
    const ext = req.params.format === 'xlsx' ? 'xlsx' : 'csv';
    return reply
      .header('content-type', file.contentType)
      .header('content-disposition', `attachment; filename="billing-run-${req.params.id}.${ext}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`)
      .header('access-control-expose-headers', 'Content-Disposition')
      .send(file.body);
  });
}
