import { existsSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';

/**
 * The file a URL path names inside `root`, or null. Anything that could step out of the
 * folder or be read two ways (`..`, dot files, backslashes, NUL, a `%` left after decoding,
 * bad escapes) is null, so that a path outside answers exactly like a missing file
 * (security.md, item 9) instead of @fastify/static's 403.
 */
export function fileInside(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (/[\\\0%]/.test(decoded)) return null;
  const segments = decoded.split('/').filter(Boolean);
  if (!segments.length || segments.some((s) => s.startsWith('.'))) return null;
  const full = resolve(root, ...segments);
  if (!full.startsWith(root + sep)) return null;
  return statSync(full, { throwIfNoEntry: false })?.isFile() ? segments.join('/') : null;
}

/**
 * Serves the built console; any other GET that wants HTML gets index.html, so the console's
 * own router handles deep links. API paths keep their JSON 404.
 */
export async function setupStatic(app: FastifyInstance, webDist: string) {
  if (!existsSync(join(webDist, 'index.html'))) {
    app.log.warn(`console not built (${webDist} has no index.html); run "npm run build"`);
    return;
  }
  const root = resolve(webDist);
  // serve: false: every file goes through the one route below, which decides what exists.
  // preCompressed: the build writes each text file also as .br and .gz (apps/web/scripts/
  // precompress.ts); a browser gets the one its Accept-Encoding prefers, the plain file
  // otherwise, and every answer says `Vary: accept-encoding` for the caches between.
  await app.register(fastifyStatic, { root, serve: false, index: false, cacheControl: false, dotfiles: 'deny', preCompressed: true });
  const serveIndex = (reply: FastifyReply) => {
    reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html');
  };
  app.get('/', { config: { access: 'public' }, schema: { hide: true } }, (_req, reply) => serveIndex(reply));
  app.get('/*', { config: { access: 'public' }, schema: { hide: true } }, async (req, reply) => {
    const path = req.url.split('?')[0];
    if (path.startsWith('/api/') || path === '/ws') return reply.callNotFound();
    // Anything without an extension is a console route.
    if (!/\.[a-z0-9]+$/i.test(path)) return serveIndex(reply);
    const file = fileInside(root, path);
    if (!file) return reply.callNotFound();
    // Hashed assets are immutable.
    reply.header('cache-control', file.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    return reply.sendFile(file);
  });
}
