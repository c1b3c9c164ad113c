import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

/**
 * Serves the built console; any other GET that wants HTML gets index.html, so the console's
 * own router handles deep links. API paths keep their JSON 404.
 */
export async function setupStatic(app: FastifyInstance, webDist: string) {
  if (!existsSync(join(webDist, 'index.html'))) {
    app.log.warn(`console not built (${webDist} has no index.html); run "npm run build"`);
    return;
  }
  await app.register(fastifyStatic, { root: webDist, wildcard: false, index: false, cacheControl: false });
  const serveIndex = (_req: unknown, reply: { header: (k: string, v: string) => void; sendFile: (f: string) => unknown }) => {
    reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html');
  };
  app.get('/', { config: { access: 'public' }, schema: { hide: true } }, serveIndex as never);
  app.get('/*', { config: { access: 'public' }, schema: { hide: true } }, async (req, reply) => {
    const path = req.url.split('?')[0];
    if (path.startsWith('/api/') || path === '/ws') return reply.callNotFound();
    // Hashed assets are immutable; anything without an extension is a console route.
    if (/\.[a-z0-9]+$/i.test(path) && existsSync(join(webDist, decodeURIComponent(path)))) {
      if (path.startsWith('/assets/')) reply.header('cache-control', 'public, max-age=31536000, immutable');
      return reply.sendFile(decodeURIComponent(path).slice(1));
    }
    if (/\.[a-z0-9]+$/i.test(path)) return reply.callNotFound();
    return serveIndex(req, reply as never);
  });
}
