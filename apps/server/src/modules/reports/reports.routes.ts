import { z } from 'zod';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { availabilityDaySchema, deviceAvailabilityRowSchema, pagesByMonthSchema, deviceCountersRowSchema, installedConsumableRowSchema, meterReadRowSchema, partReplacementRowSchema, reportDownloadQuerySchema, reportQuerySchema, reportTypeSchema } from '@pagewatch/contracts/reports';
import { listQuerySchema, pageResponseSchema } from '@pagewatch/contracts/list';
import { AppError } from '../../lib/app-error.ts';
import { callerOf } from '../../plugins/access.ts';
import { sendFile } from '../../plugins/file-reply.ts';
import type { ReportsService } from './reports.service.ts';

const downloadParams = z.object({ reportId: z.coerce.number('general.badValue').int('general.badValue').min(1, 'general.badValue').max(100, 'general.badValue'), formatCode: z.string().max(10) });

/** A JSON text written by PostgreSQL in the response schema's types, sent as it is. */
const sendJson = (reply: FastifyReply, json: string) => reply.type('application/json; charset=utf-8').send(json as never);

/** Reports (grant MNU_REPORTS.READ; always within the caller's locations). */
export async function reportsRoutes(root: FastifyInstance, reports: ReportsService) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['reports'];
  const read = { access: 'MNU_REPORTS.READ' } as const;

  app.get('/api/reports', { config: read, schema: { tags, response: { 200: z.array(reportTypeSchema) } } }, (req) => reports.types(req.lang));

  app.get('/api/reports/device-availability', { config: read, schema: { tags, querystring: reportQuerySchema, response: { 200: z.array(deviceAvailabilityRowSchema) } } }, async (req, reply) =>
    sendJson(reply, await reports.json(callerOf(req), 'DEVICE_AVAILABILITY', req.query)));
  app.get('/api/reports/device-counters', { config: read, schema: { tags, querystring: reportQuerySchema, response: { 200: z.array(deviceCountersRowSchema) } } }, async (req, reply) =>
    sendJson(reply, await reports.json(callerOf(req), 'DEVICE_COUNTERS', req.query)));
  app.get('/api/reports/part-replacements', { config: read, schema: { tags, querystring: reportQuerySchema, response: { 200: z.array(partReplacementRowSchema) } } }, async (req, reply) =>
    sendJson(reply, await reports.json(callerOf(req), 'PART_REPLACEMENTS', req.query)));
  app.get('/api/reports/meter-reads', { config: read, schema: { tags, summary: 'Meter reads: per device, each meter\'s first and last read of the period and its pages, corrections applied', querystring: reportQuerySchema, response: { 200: z.array(meterReadRowSchema) } } }, async (req, reply) =>
    sendJson(reply, await reports.json(callerOf(req), 'METER_READS', req.query)));
  app.get('/api/reports/installed-consumables', { config: read, schema: { tags, querystring: reportQuerySchema, response: { 200: z.array(installedConsumableRowSchema) } } }, async (req, reply) =>
    sendJson(reply, await reports.json(callerOf(req), 'INSTALLED_CONSUMABLES', req.query)));

  // The installed consumables grid, a page at a time (a fleet has hundreds of thousands of supplies).
  app.get('/api/reports/installed-consumables/page', {
    config: read,
    schema: { tags, summary: 'The installed consumables report as a paged list: the report filter and the list protocol', querystring: reportQuerySchema.extend(listQuerySchema.shape), response: { 200: pageResponseSchema(installedConsumableRowSchema.extend({ id: z.string() })) } },
  }, async (req, reply) => {
    const { page, sort, 'filter-json': filterJson, filter, locate, ...report } = req.query;
    sendJson(reply, await reports.installedPage(callerOf(req), report, { page, sort, 'filter-json': filterJson, filter, locate }));
  });

  app.get('/api/reports/device-availability/days', { config: read, schema: { tags, summary: 'The availability chart: devices read and working per day', querystring: reportQuerySchema, response: { 200: z.array(availabilityDaySchema) } } }, (req) =>
    reports.chart(callerOf(req), 'DEVICE_AVAILABILITY', req.query));
  app.get('/api/reports/device-counters/months', { config: read, schema: { tags, summary: 'The counters chart: pages per location and month', querystring: reportQuerySchema, response: { 200: z.array(pagesByMonthSchema) } } }, (req) =>
    reports.chart(callerOf(req), 'DEVICE_COUNTERS', req.query));

  app.get('/api/reports/download/:reportId/:formatCode', {
    config: read,
    schema: { tags, summary: 'A report as a file; `filter` is the filter as JSON, with `columns` in their order. Made as it is read, a few at once (PAGEWATCH_EXPORTS_RUNNING): a file queued behind others answers at once with X-Export-Queued (how many are before it) and follows when its turn comes; one beyond the queue is refused with 503 EXPORTS_BUSY and Retry-After',
      description: 'Written in the caller\'s language (Accept-Language): in Russian a CSV is separated by semicolons with decimal commas and dates as dd.mm.yyyy (times dd.mm.yyyy HH:MM, UTC), in English by commas with ISO dates (YYYY-MM-DD, times YYYY-MM-DD HH:MM, UTC); both UTF-8 with a byte order mark. An XLSX holds typed cells (dates, numbers) shown in the language\'s format',
      params: downloadParams, querystring: reportDownloadQuerySchema },
  }, async (req, reply) => {
    let filter: unknown = {};
    try {
      filter = req.query.filter ? JSON.parse(req.query.filter) : {};
    } catch {
      throw new AppError('VALIDATION', { fields: [{ field: 'filter', key: 'general.badValue' }] });
    }
    const file = await reports.file(callerOf(req), req.params.reportId, req.params.formatCode.toUpperCase(), filter, req.lang, req.query.headers);
    // A download given up (closed, or still queued) frees its place in the exports' gate.
    reply.raw.once('close', () => {
      if (!file.body.readableEnded) file.body.destroy();
    });
    // Queued behind others: the console tells the user, and the file follows when its turn comes.
    if (file.ahead) reply.header('x-export-queued', String(file.ahead));
    return sendFile(reply, file, `report.${req.params.formatCode.toLowerCase().replace(/[^a-z]/g, '')}`, ['X-Export-Queued']);
  });
}
