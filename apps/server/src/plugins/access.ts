import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Grant } from '@pagewatch/contracts/grants';
import { API_TOKEN_PREFIX } from '@pagewatch/contracts/api-tokens';
import { AppError } from '../lib/app-error.ts';
import type { Caller } from '../lib/caller.ts';
import './access.messages.ts';

/**
 * Every route declares who may call it, in `config.access`:
 * - `'public'`: anyone (sign-in, config, docs);
 * - `'user'`: any signed-in user;
 * - a grant such as `'MNU_USERS.EDIT'`: a signed-in user holding it;
 * - `'agent'`: an agent token (collection routes).
 * A route under /api without a declaration is a start-up error, so none is open by accident.
 *
 * A personal API token (`pwt_…`) acts as its user on user routes, except those that are
 * `sessionOnly`: sign-in and sign-out, user management (the MNU_USERS grants), the tokens
 * themselves (a token cannot mint tokens), the WebSocket, and whatever can redirect mail, links
 * or secrets (issue 52: the settings and channels, notifications' content and recipients, the
 * suppliers' addresses, a new agent token). A read-only token calls GET only.
 */
export type Access = 'public' | 'user' | 'agent' | Grant;

export type RouteAccess = { method: string; url: string; access: Access; sessionOnly: boolean };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** Refused to API tokens (see above); set by default on /api/auth, /ws and MNU_USERS routes. */
    sessionOnly?: boolean;
  }
  interface FastifyRequest {
    caller: Caller | null;
    agentId: number | null;
  }
  interface FastifyInstance {
    routeAccess: RouteAccess[];
  }
}

export type SessionResolver = (tokenHash: string) => Promise<Caller | null | 'expired'>;
export type AgentResolver = (tokenHash: string) => Promise<number | null>;
/** API tokens: the caller behind one, and what each use costs (a throttle that may refuse it, a record). */
export type ApiTokenResolver = { resolve: SessionResolver; used: (tokenId: number) => Promise<void> };

/** Routes refused to API tokens whatever they declare: signing in and out, the live socket, managing users. */
const sessionOnlyByDefault = (url: string, access: Access) => url.startsWith('/api/auth/') || url === '/ws' || access.startsWith('MNU_USERS.');
/** What a read-only token may call. */
const READ_METHODS = new Set(['GET', 'HEAD']);

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The WebSocket path: browsers cannot set headers on an upgrade, so its token may come in the query. */
const QUERY_TOKEN_PATHS = new Set(['/ws']);

export function bearerToken(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (h?.startsWith('Bearer ')) return h.slice(7).trim() || null;
  // Elsewhere a token in the URL would end up in logs, proxies and the browser history.
  if (!QUERY_TOKEN_PATHS.has(req.routeOptions.url ?? '')) return null;
  const q = (req.query as Record<string, unknown> | undefined)?.access_token;
  return typeof q === 'string' && q ? q : null;
}

/**
 * An agent's token the server does not know: the agent was deleted or its token renewed in the
 * console, so this agent is switched off. Said so, not as a user who failed to sign in.
 */
export const agentRefused = () => new AppError('UNAUTHENTICATED', { key: 'agents.tokenRefused' });

export function setupAccess(app: FastifyInstance, resolveSession: SessionResolver, resolveAgent: AgentResolver, apiTokens: ApiTokenResolver) {
  app.decorate('routeAccess', [] as RouteAccess[]);
  app.decorateRequest('caller', null);
  app.decorateRequest('agentId', null);

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api') && route.url !== '/ws') return;
    let access = route.config?.access;
    if (!access && route.url.startsWith('/api/docs')) access = 'public';
    if (!access) throw new Error(`Route ${route.method} ${route.url} declares no access`);
    const sessionOnly = route.config?.sessionOnly ?? sessionOnlyByDefault(route.url, access);
    route.config = { ...route.config, access, sessionOnly };
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      app.routeAccess.push({ method, url: route.url, access, sessionOnly });
    }
  });

  app.addHook('onRequest', async (req) => {
    const access = req.routeOptions.config?.access;
    if (!access || access === 'public') return;
    const token = bearerToken(req);
    if (!token) throw access === 'agent' ? agentRefused() : new AppError('UNAUTHENTICATED');
    const hash = hashToken(token);
    // An API token is never an agent's, and an agent's or a session's never an API token.
    if (token.startsWith(API_TOKEN_PREFIX)) {
      if (access === 'agent') throw agentRefused();
      return callWithApiToken(req, hash, access, apiTokens);
    }
    if (access === 'agent') {
      const agentId = await resolveAgent(hash);
      if (agentId === null) throw agentRefused();
      req.agentId = agentId;
      return;
    }
    const caller = await resolveSession(hash);
    if (caller === 'expired') throw new AppError('TOKEN_EXPIRED');
    if (!caller) throw new AppError('UNAUTHENTICATED');
    req.caller = caller;
    if (access !== 'user' && !caller.grants.has(access)) throw new AppError('FORBIDDEN');
  });
}

async function callWithApiToken(req: FastifyRequest, hash: string, access: Access, apiTokens: ApiTokenResolver) {
  const caller = await apiTokens.resolve(hash);
  if (caller === 'expired') throw new AppError('TOKEN_EXPIRED');
  if (!caller?.apiToken) throw new AppError('UNAUTHENTICATED');
  // Every use is recorded and counted, refused ones too: a script stuck on a refusal is slowed
  // like any other, and the line tells the owner which call was tried.
  req.log.info({ apiToken: caller.apiToken.id, userId: caller.userId, method: req.method, route: req.routeOptions.url }, 'api token call');
  await apiTokens.used(caller.apiToken.id);
  if (req.routeOptions.config.sessionOnly) throw new AppError('FORBIDDEN', { key: 'apiTokens.sessionOnly' });
  if (caller.apiToken.readOnly && !READ_METHODS.has(req.method)) throw new AppError('FORBIDDEN', { key: 'apiTokens.readOnly' });
  req.caller = caller;
  if (access !== 'user' && !caller.grants.has(access as Grant)) throw new AppError('FORBIDDEN');
}

/** The signed-in caller of a route that declared user access. */
export function callerOf(req: FastifyRequest): Caller {
  if (!req.caller) throw new AppError('UNAUTHENTICATED');
  return req.caller;
}

/** The agent of a route that declared agent access. */
export function agentOf(req: FastifyRequest): number {
  if (req.agentId === null) throw new AppError('UNAUTHENTICATED');
  return req.agentId;
}
