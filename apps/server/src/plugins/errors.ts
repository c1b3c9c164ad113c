import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorBody } from '@pagewatch/contracts/errors';
import { AppError, type FieldError } from '../lib/app-error.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { hasMessage, pickLang, translate, type Lang } from '../i18n/messages.ts';

declare module 'fastify' {
  interface FastifyRequest {
    lang: Lang;
  }
}

/** A zod issue's message is an i18n key when we wrote it, otherwise pick one by its code. */
function issueKey(message: string, keyword: string, params: Record<string, unknown>): { key: string; params: Record<string, unknown> } {
  if (hasMessage(message)) return { key: message, params };
  if (keyword === 'too_small') return { key: params.minimum === 1 && params.origin === 'string' ? 'general.mandatory' : 'general.tooShort', params };
  if (keyword === 'too_big') return { key: 'general.tooLong', params };
  if (keyword === 'invalid_type' && params.input === undefined) return { key: 'general.mandatory', params };
  if (keyword === 'invalid_type') return { key: 'general.badType', params };
  return { key: 'general.badValue', params };
}

function body(lang: Lang, code: string, key: string, params: Record<string, unknown>, fields: FieldError[]): ErrorBody {
  const details = fields.map((f) => ({ field: f.field, message: translate(lang, f.key, f.params) }));
  const message = details.length ? `${translate(lang, key, params)}: ${details.map((d) => `${d.field}: ${d.message}`).join('; ')}` : translate(lang, key, params);
  return details.length ? { code, message, details } : { code, message };
}

const MALFORMED_MULTIPART = /^(Unexpected end of (form|multipart data)|Malformed part header|Multipart: Boundary not found|Malformed urlencoded form)/;

/** Called for every 500, after the reply is chosen; the event log keeps it with its stack trace. */
export type InternalErrorSink = (err: Error, req: FastifyRequest) => Promise<unknown>;

export function setupErrors(app: FastifyInstance, onInternal?: InternalErrorSink) {
  app.decorateRequest('lang', 'en');
  app.addHook('onRequest', async (req) => {
    req.lang = pickLang(req.headers['accept-language']);
  });

  app.setErrorHandler((err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    const lang = req.lang ?? 'en';
    if (err instanceof AppError) {
      for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
      return reply.status(err.status).send(body(lang, err.code, err.key, err.params, err.fields));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields: FieldError[] = err.validation.map((v) => {
        const where = err.validationContext === 'body' ? '' : `${err.validationContext}.`;
        const { key, params } = issueKey(v.message, v.keyword, v.params as Record<string, unknown>);
        return { field: `${where}${v.instancePath.replace(/^\//, '').replace(/\//g, '.')}` || String(err.validationContext), key, params };
      });
      return reply.status(400).send(body(lang, 'VALIDATION', 'errors.VALIDATION', {}, fields));
    }
    const status = err.statusCode ?? 500;
    if (status === 413) return reply.status(413).send(body(lang, 'TOO_LARGE', 'errors.TOO_LARGE', {}, []));
    if (status === 415) return reply.status(415).send(body(lang, 'UNSUPPORTED_MEDIA', 'errors.UNSUPPORTED_MEDIA', {}, []));
    if (status === 404) return reply.status(404).send(body(lang, 'NOT_FOUND', 'errors.NOT_FOUND', {}, []));
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, bad content type): their text is safe to show.
      return reply.status(status).send({ code: err.code ?? 'BAD_REQUEST', message: err.message });
    }
    if (MALFORMED_MULTIPART.test(err.message ?? '')) {
      // busboy's words for a cut-off or garbled upload: bad input, not a failure of ours.
      return reply.status(400).send(body(lang, 'VALIDATION', 'errors.VALIDATION', {}, [{ field: 'body', key: 'general.badMultipart' }]));
    }
    if (isDatabaseUnavailable(err)) {
      // An outage, not a bug: no event log entry (it could not be written anyway).
      req.log.warn({ err }, 'database unavailable');
      return reply.status(503).header('Retry-After', '5').send(body(lang, 'DATABASE_UNAVAILABLE', 'errors.DATABASE_UNAVAILABLE', {}, []));
    }
    req.log.error({ err }, 'request failed');
    onInternal?.(err, req).catch((e) => req.log.error({ err: e }, 'writing the error to the event log failed'));
    return reply.status(500).send(body(lang, 'INTERNAL', 'errors.INTERNAL', {}, []));
  });

  app.setNotFoundHandler((req, reply) => {
    reply.status(404).send(body(req.lang ?? 'en', 'NOT_FOUND', 'errors.NOT_FOUND', {}, []));
  });
}
