import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { z } from 'zod';
import type { Grant } from '@pagewatch/contracts/grants';
import { listQuerySchema, pageResponseSchema } from '@pagewatch/contracts/list';
import type { Caller } from '../lib/caller.ts';
import { callerOf } from './access.ts';

/** Who may call a route of a table: any signed-in user, or one holding the grant (plugins/access.ts). */
export type CallerAccess = 'user' | Grant;

/** A route's schemas as Fastify takes them, except `reply`: the 200 answer's. */
export type RouteSchemas = {
  summary?: string;
  consumes?: string[];
  params?: z.ZodType;
  querystring?: z.ZodType;
  body?: z.ZodType;
  reply?: z.ZodType;
};

type Parsed<S, K extends string> = S extends { [k in K]: infer T extends z.ZodType } ? z.output<T> : unknown;
type Answer<S> = S extends { reply: infer T extends z.ZodType } ? z.input<T> : unknown;

/** The request as a handler sees it: params, query and body as the route's schemas parsed them. */
export type RouteRequest<S> = FastifyRequest<{ Params: Parsed<S, 'params'>; Querystring: Parsed<S, 'querystring'>; Body: Parsed<S, 'body'> }>;
type Handler<S> = (req: RouteRequest<S>, caller: Caller, reply: FastifyReply) => Answer<S> | Promise<Answer<S>>;

/**
 * The console's routes of one tag, each declared in one statement: path, access, schemas and
 * a handler given the signed-in caller. Every route of a table has a caller (its access is a
 * grant or 'user'), so a handler cannot forget to ask for one; agent and public routes are
 * declared on Fastify directly.
 */
export function routeTable(root: FastifyInstance, tags: string[], opts: { sessionOnly?: true } = {}) {
  const add = (method: 'GET' | 'POST' | 'PUT' | 'DELETE') =>
    <S extends RouteSchemas>(url: string, access: CallerAccess, schemas: S, handler: Handler<S>) => {
      const { reply, ...rest } = schemas;
      const schema: FastifySchema = { tags, ...rest, ...(reply ? { response: { 200: reply } } : {}) };
      root.route({ method, url, config: { access, ...opts }, schema, handler: async (req, res) => handler(req as RouteRequest<S>, callerOf(req), res) });
    };
  const get = add('GET');
  const remove = add('DELETE');
  return {
    get,
    post: add('POST'),
    put: add('PUT'),
    /** A deletion answers 204 No Content once the handler is done. */
    delete: <S extends Omit<RouteSchemas, 'reply'>>(url: string, access: CallerAccess, schemas: S, handler: (req: RouteRequest<S>, caller: Caller) => Promise<unknown>) =>
      remove(url, access, schemas, async (req, caller, res) => {
        await handler(req, caller);
        return res.status(204).send();
      }),
    /** A deletion that answers 200 with what is left (a list a row was taken from). */
    deleteFrom: remove,
    /** A page of rows by the list query (`?page=`, sort, filters), at each of the paths given. */
    list: <R extends z.ZodType>(urls: string | string[], access: CallerAccess, row: R, handler: Handler<{ querystring: typeof listQuerySchema; reply: ReturnType<typeof pageResponseSchema<R>> }>) => {
      for (const url of [urls].flat()) get(url, access, { querystring: listQuerySchema, reply: pageResponseSchema(row) }, handler);
    },
  };
}
