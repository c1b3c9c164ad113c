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

/**
 * The server's logger: requests and errors go through the serialisers that drop secrets. Each
 * line is JSON with the level by name ("info", "error"), which log collectors read without a
 * table of pino's numbers.
 */
export function loggerOptions(level: string, stream?: { write(line: string): void }) {
  return {
    level,
    serializers: { req: redactedRequest, err: loggableError },
    formatters: { level: (label: string) => ({ level: label }) },
    ...(stream ? { stream } : {}),
  } satisfies FastifyServerOptions['logger'];
}
