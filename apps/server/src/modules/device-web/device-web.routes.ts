import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParams } from '@pagewatch/contracts/fields';
import {
  DEVICE_WEB_MAX_BODY, DEVICE_WEB_PREFIX, WEB_PROXY_HEAD_MAX, deviceWebOpenSchema, deviceWebSessionSchema,
  webProxyHeadSchema, webProxyRequestsSchema, webProxyResponseSchema, webProxyWaitSchema,
} from '@pagewatch/contracts/device-web';
import { routeTable } from '../../plugins/route-table.ts';
import { agentOf } from '../../plugins/access.ts';
import { invalid, notFound } from '../../lib/app-error.ts';
import { pickLang, translate } from '../../i18n/messages.ts';
import type { AppContext } from '../../app-context.ts';
import { DEVICE_WEB_GRANT } from './device-web.service.ts';
import { onDeviceWebHost } from './device-web.origin.ts';
import type { DeviceWebOrigin } from '../../config.ts';
import type { DeviceWebBroker } from './device-web.broker.ts';
import { readHead } from './device-web.stream.ts';

/**
 * The server's hooks for the device pages, registered before every route: the broker's waits end
 * before the server closes; and with the pages on an origin of their own
 * (PAGEWATCH_DEVICE_WEB_ORIGIN), a host under it serves the device pages and nothing else (no
 * console, no API, no agent protocol), and the console's host serves no device page, before the
 * access check and the console's files.
 */
export function deviceWebHooks(root: FastifyInstance, broker: DeviceWebBroker, origin: DeviceWebOrigin | null) {
  root.addHook('preClose', async () => broker.close());
  if (!origin) return;
  root.addHook('onRequest', async (req, reply) => {
    const pageHost = onDeviceWebHost(origin, req.headers.host);
    if (pageHost === (req.raw.url ?? '').startsWith(DEVICE_WEB_PREFIX)) return;
    return reply.status(404).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(translate(pickLang(req.headers['accept-language']), 'deviceWeb.notHere'));
  });
}

/**
 * The device's own web page (issue 55): the console's routes (open, list, close), the agent's
 * long poll and answers, and the proxied page under /device-web/<token>/.
 */
export async function deviceWebRoutes(root: FastifyInstance, ctx: Pick<AppContext, 'deviceWeb' | 'deviceWebBroker'>) {
  const svc = ctx.deviceWeb;
  // Opening is refused to API tokens: a page is opened by a person, from the card.
  const r = routeTable(root, ['device web'], { sessionOnly: true });
  r.post('/api/devices/:id/web-sessions', DEVICE_WEB_GRANT, {
    summary: "Opens a session of the device's own web page through its agent (at most 30 minutes)",
    params: idParams, body: deviceWebOpenSchema, reply: deviceWebSessionSchema,
  }, (req, caller) => svc.open(caller, req.params.id, req.body.port));
  r.get('/api/devices/:id/web-sessions', DEVICE_WEB_GRANT, {
    summary: "The caller's open sessions of the device's web page", params: idParams, reply: z.array(deviceWebSessionSchema),
  }, (req, caller) => svc.list(caller, req.params.id));
  r.delete('/api/device-web-sessions/:id', DEVICE_WEB_GRANT, { summary: "Closes one of the caller's sessions of a device's web page", params: idParams },
    (req, caller) => svc.close(caller, req.params.id));

  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['agent protocol'];
  app.get('/api/agent/web-requests', {
    config: { access: 'agent' },
    schema: { tags, querystring: webProxyWaitSchema, response: { 200: webProxyRequestsSchema } },
  }, async (req) => {
    const abort = new AbortController();
    req.raw.once('close', () => abort.abort());
    return { requests: await ctx.deviceWebBroker.take(agentOf(req), req.query.waitMs, abort.signal) };
  });
  app.post('/api/agent/web-requests/:id', {
    config: { access: 'agent' },
    bodyLimit: Math.ceil(DEVICE_WEB_MAX_BODY / 3) * 4 + 1024 * 1024,
    schema: { tags, params: z.object({ id: z.uuid() }), body: webProxyResponseSchema },
  }, async (req, reply) => {
    if (!ctx.deviceWebBroker.answer(agentOf(req), req.params.id, req.body)) throw notFound();
    return reply.status(204).send();
  });

  await root.register(async (agentApi) => {
    // The device's bytes are read by the browser's answer, as they come: not parsed, not held.
    agentApi.addContentTypeParser('application/octet-stream', (_req, payload, done) => done(null, payload));
    agentApi.withTypeProvider<ZodTypeProvider>().post('/api/agent/web-requests/:id/stream', {
      config: { access: 'agent' },
      schema: { tags, params: z.object({ id: z.uuid() }) },
    }, async (req, reply) => {
      const body = req.body as Readable;
      const head = webProxyHeadSchema.safeParse(await readHead(body, WEB_PROXY_HEAD_MAX).then((b) => JSON.parse(b.toString('utf8')) as unknown, () => null));
      if (!head.success) throw invalid('head', 'deviceWeb.badHead');
      const taken = ctx.deviceWebBroker.stream(agentOf(req), req.params.id, head.data, body);
      if (!taken) throw notFound();
      // Taken all: the agent is told so. Not taken (the browser went away, the page too large): the
      // connection is cut, which ends the agent's upload and its request to the device.
      if (await taken.then(() => true, () => false)) return reply.status(204).send();
      req.raw.socket.destroy();
      return reply.hijack();
    });
  });

  await root.register(async (proxy) => {
    // Any body, as bytes: the page's forms are the device's business.
    proxy.removeAllContentTypeParsers();
    proxy.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: DEVICE_WEB_MAX_BODY }, (_req, body, done) => done(null, body));
    const handle = async (req: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply) => {
      const prefix = `${DEVICE_WEB_PREFIX}${req.params.token}`;
      const raw = req.raw.url ?? '';
      if (raw === prefix || raw.startsWith(`${prefix}?`)) return reply.redirect(`${prefix}/${raw.slice(prefix.length)}`, 302);
      const answer = await svc.proxy({
        token: req.params.token, method: req.method, tail: raw.startsWith(prefix) ? raw.slice(prefix.length) : '/', headers: req.headers,
        body: Buffer.isBuffer(req.body) && req.body.length ? req.body : null,
      });
      if ('messageKey' in answer) {
        for (const [k, v] of Object.entries(svc.headers)) reply.header(k, v);
        return reply.status(answer.status).type('text/plain; charset=utf-8').send(translate(pickLang(req.headers['accept-language']), answer.messageKey));
      }
      for (const [k, v] of answer.headers) reply.header(k, v);
      return reply.status(answer.status).send(answer.body);
    };
    proxy.all(`${DEVICE_WEB_PREFIX}:token`, handle);
    proxy.all(`${DEVICE_WEB_PREFIX}:token/*`, handle);
  });
}
