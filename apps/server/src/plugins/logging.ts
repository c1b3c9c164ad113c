import type { FastifyServerOptions } from 'fastify';
import { loggableError } from '../lib/loggable-error.ts';

/**
 * Request log lines without secrets: the WebSocket sends its token in the query string, and a
 * password restore link carries its token in the path.
 */
export function redactedRequest(req: { method: string; url: string; ip?: string }) {
  const url = req.url
    .replace(/([?&]access_token=)[^&]*/g, '$1[redacted]')
    .replace(/^(\/api\/auth\/restore-password\/)[^/?]+/, '$1[redacted]');
  return { method: req.method, url, remoteAddress: req.ip };
}

/** The server's logger: requests and errors go through the serialisers that drop secrets. */
export function loggerOptions(level: string, stream?: { write(line: string): void }): FastifyServerOptions['logger'] {
  return { level, serializers: { req: redactedRequest, err: loggableError }, ...(stream ? { stream } : {}) };
}
