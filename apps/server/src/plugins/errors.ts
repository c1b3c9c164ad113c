import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, type FieldError } from '../lib/app-error.ts';
import { errorBody, issueKey } from '../lib/error-body.ts';
import { isDatabaseShortOfResources, isDatabaseUnavailable } from '../db/unavailable.ts';
import { pickLang, type Lang } from '../i18n/messages.ts';

declare module 'fastify' {
  interface FastifyRequest {
    lang: Lang;
  }
}

/** Called for every 500, after the reply is chosen; the event log keeps it with its stack trace. */
export type InternalErrorSink = (err: Error, req: FastifyRequest) => Promise<unknown>;

/**
 * busboy's words for a cut-off or garbled upload. A body cut while a route reads a file's data
 * fails that file's stream with "Part terminated early" rather than the form's "Unexpected end"
 * (issue 52): both are the caller's, every upload route alike.
 */
const MALFORMED_MULTIPART = /^(Unexpected end of (form|multipart data)|(Part|Preamble) terminated early due to unexpected end of multipart data|Malformed part header|Multipart: Boundary not found|Malformed urlencoded form)/;

export function setupErrors(app: FastifyInstance, onInternal?: InternalErrorSink) {
  app.decorateRequest('lang', 'en');
  app.addHook('onRequest', async (req) => {
    req.lang = pickLang(req.headers['accept-language']);
  });

  app.setErrorHandler((err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    const lang = req.lang ?? 'en';
    if (err instanceof AppError) {
      for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
      return reply.status(err.status).send(errorBody(lang, err.code, err.key, err.params, err.fields));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields: FieldError[] = err.validation.map((v) => {
        const where = err.validationContext === 'body' ? '' : `${err.validationContext}.`;
        const { key, params } = issueKey(v.message, v.keyword, v.params as Record<string, unknown>);
        return { field: `${where}${v.instancePath.replace(/^\//, '').replace(/\//g, '.')}` || String(err.validationContext), key, params };
      });
      return reply.status(400).send(errorBody(lang, 'VALIDATION', 'errors.VALIDATION', {}, fields));
    }
    if (MALFORMED_MULTIPART.test(err.message ?? '')) {
      // busboy's words for a cut-off or garbled upload: bad input, not a failure of ours.
      return reply.status(400).send(errorBody(lang, 'VALIDATION', 'errors.VALIDATION', {}, [{ field: 'body', key: 'general.badMultipart' }]));
    }
    if (isDatabaseShortOfResources(err)) {
      // A full disk (or no memory) is the operator's to fix, not a bug: a 503, and /api/ready says so.
      req.log.error({ err }, 'database out of disk space or memory');
      return reply.status(503).header('Retry-After', '30').send(errorBody(lang, 'DATABASE_FULL', 'errors.DATABASE_FULL', {}, []));
    }
    if (isDatabaseUnavailable(err)) {
      // An outage, not a bug: no event log entry (it could not be written anyway).
      req.log.warn({ err }, 'database unavailable');
      return reply.status(503).header('Retry-After', '5').send(errorBody(lang, 'DATABASE_UNAVAILABLE', 'errors.DATABASE_UNAVAILABLE', {}, []));
    }
    const status = err.statusCode ?? 500;
    if (status === 413) return reply.status(413).send(errorBody(lang, 'TOO_LARGE', 'errors.TOO_LARGE', {}, []));
    if (status === 415) return reply.status(415).send(errorBody(lang, 'UNSUPPORTED_MEDIA', 'errors.UNSUPPORTED_MEDIA', {}, []));
    if (status === 404) return reply.status(404).send(errorBody(lang, 'NOT_FOUND', 'errors.NOT_FOUND', {}, []));
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, bad content type): their text is safe to show.
      return reply.status(status).send({ code: err.code ?? 'BAD_REQUEST', message: err.message });
    }
    req.log.error({ err }, 'request failed');
    onInternal?.(err, req).catch((e) => req.log.error({ err: e }, 'writing the error to the event log failed'));
    return reply.status(500).send(errorBody(lang, 'INTERNAL', 'errors.INTERNAL', {}, []));
  });

  app.setNotFoundHandler((req, reply) => {
    reply.status(404).send(errorBody(req.lang ?? 'en', 'NOT_FOUND', 'errors.NOT_FOUND', {}, []));
  });
}
