import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  DEVICE_WEB_MAX_BODY, DEVICE_WEB_METHODS, DEVICE_WEB_PREFIX, DEVICE_WEB_SESSION_MS, deviceWebScheme,
  type DeviceWebPort, type DeviceWebSession, type WebProxyRequest,
} from '@pagewatch/contracts/device-web';
import { conflict, forbidden, notFound } from '../../lib/app-error.ts';
import { inScope, type Caller } from '../../lib/caller.ts';
import { hashToken } from '../../plugins/access.ts';
import type { Db } from '../../db/client.ts';
import { DomainService, type EventLog } from '../event-logs/index.ts';
import { deviceInScope } from '../devices/index.ts';
import type { DeviceWebBroker } from './device-web.broker.ts';
import type { DeviceWebOrigin } from '../../config.ts';
import { DEVICE_WEB_COOKIE, DEVICE_WEB_TICKET, DEVICE_WEB_TICKET_MS, cookieValue, labelOfHost, sessionCookie, sessionOrigin, ticketOf } from './device-web.origin.ts';
import { DEVICE_WEB_HEADERS, DEVICE_WEB_HEADERS_OWN_ORIGIN, devicePath, requestHeadersForDevice, rewriteLinks, rewriteLocation, updateJar, type HeaderPairs } from './device-web.headers.ts';
import { upTo, wholeOf } from './device-web.stream.ts';
import * as repo from './device-web.repository.ts';
import './device-web.messages.ts';

export type ConsoleSessionResolver = (tokenHash: string) => Promise<Caller | null | 'expired'>;
export const DEVICE_WEB_GRANT = 'BTN_DEVICE_WEB.EXECUTE';
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** A browser's request on a session's path. */
export type ProxyCall = { token: string; method: string; tail: string; headers: Record<string, string | string[] | undefined>; body: Buffer | null };
/** What the browser is answered: a status, headers and bytes; `messageKey` when the answer is ours, not the device's. */
export type ProxyAnswer = { status: number; headers: HeaderPairs; body: Buffer | Readable } | { status: number; messageKey: string };
/** The device's answer: whole (an older agent's), or its bytes as they come. */
type DeviceAnswer = { status: number; headers: HeaderPairs; body: Buffer | Readable };

/**
 * The device's own web page through its agent (issue 55). A user with BTN_DEVICE_WEB.EXECUTE
 * opens a session for a device of their locations; the page is then proxied under
 * /device-web/<token>/ for at most 30 minutes, until closed, or until the console session that
 * opened it ends. Every request checks the grant and the locations again and is in the event log.
 * The path's token is not bound to the browser by a cookie: the page is served with a CSP sandbox
 * (an opaque origin, so it can never read the console's storage), and browsers treat every request
 * such a page makes as cross-site, so a Strict or Lax cookie is not sent and a SameSite=None one is
 * blocked with third-party cookies (w3c/webappsec-csp#664). So with PAGEWATCH_DEVICE_WEB_ORIGIN
 * set, each session has a host of its own under that origin (no sandbox there), its URL carries a
 * one-time ticket that the first request swaps for an HttpOnly cookie of that host, and every
 * request needs the cookie: a copied URL is of no use in another browser.
 */
export class DeviceWebService extends DomainService {
  private readonly broker: DeviceWebBroker;
  private readonly callerOfSession: ConsoleSessionResolver;
  private readonly origin: DeviceWebOrigin | null;
  /** Our headers on every answer of a page: the sandbox's, or those of an origin of its own. */
  readonly headers: Record<string, string>;
  /**
   * `callerOfSession`: the console's own session resolver (cached, and forgotten on every change
   * of the user, as for the API); `origin`: the pages' own wildcard origin, or null (sandboxed).
   */
  constructor(db: Db, log: EventLog, broker: DeviceWebBroker, callerOfSession: ConsoleSessionResolver, origin: DeviceWebOrigin | null = null) {
    super(db, log);
    this.broker = broker;
    this.callerOfSession = callerOfSession;
    this.origin = origin;
    this.headers = origin ? DEVICE_WEB_HEADERS_OWN_ORIGIN : DEVICE_WEB_HEADERS;
  }

  async open(caller: Caller, deviceId: number, port: DeviceWebPort): Promise<DeviceWebSession> {
    if (!caller.sessionId) throw forbidden('apiTokens.sessionOnly');
    const { d } = await deviceInScope(this.db, caller, deviceId);
    if (d.agentId === null) throw conflict('deviceWeb.noAgent');
    const token = randomBytes(32).toString('base64url');
    // On an origin of its own: a host label of its own, and a ticket for the one browser to claim.
    const label = this.origin ? randomBytes(16).toString('hex') : null;
    const ticket = this.origin ? randomBytes(32).toString('base64url') : null;
    const row = await this.db.transaction(async (tx) => {
      const created = await repo.insertWebSession(tx, {
        tokenHash: hashToken(token), userId: caller.userId, sessionId: caller.sessionId, deviceId, agentId: d.agentId!, host: d.ip, port,
        expiresAt: new Date(Math.min(Date.now() + DEVICE_WEB_SESSION_MS, caller.sessionExpiresAt.getTime())),
        hostLabel: label, ticketHash: ticket && hashToken(ticket), ticketExpiresAt: ticket ? new Date(Date.now() + DEVICE_WEB_TICKET_MS) : null,
      });
      await this.log.byCaller(caller, {
        group: 'DEVICES', level: 'I', messageCode: 'device.webOpened', objectClass: 'DeviceDao', objectId: deviceId, locationId: d.locationId,
        params: { device: d.serialNumber ?? d.ip, session: created.id, port },
      }, tx);
      return created;
    });
    const path = `${DEVICE_WEB_PREFIX}${token}/`;
    return view(row, this.origin && label ? `${sessionOrigin(this.origin, label)}${path}?${DEVICE_WEB_TICKET}=${ticket}` : path);
  }

  /** The caller's open sessions of a device (their tokens are not kept: no address). */
  async list(caller: Caller, deviceId: number): Promise<DeviceWebSession[]> {
    await deviceInScope(this.db, caller, deviceId);
    return (await repo.openWebSessions(this.db, caller.userId, deviceId)).map((r) => view(r, null));
  }

  /** Closes one of the caller's own sessions; another's is "not found". */
  async close(caller: Caller, id: number): Promise<void> {
    const row = await repo.webSession(this.db, { id });
    if (!row || row.userId !== caller.userId) throw notFound();
    const d = await deviceInScope(this.db, caller, row.deviceId);
    if (!(await repo.closeWebSession(this.db, id))) return;
    await this.log.byCaller(caller, {
      group: 'DEVICES', level: 'I', messageCode: 'device.webClosed', objectClass: 'DeviceDao', objectId: row.deviceId, locationId: d.d.locationId,
      params: { device: d.d.serialNumber ?? d.d.ip, session: id },
    });
  }

  /** One request of a session's page, through the agent. */
  async proxy(call: ProxyCall): Promise<ProxyAnswer> {
    const ended = { status: 404, messageKey: 'deviceWeb.ended' } as const;
    if (!TOKEN.test(call.token)) return ended;
    const row = await repo.webSession(this.db, { tokenHash: hashToken(call.token) });
    if (!row || row.closedAt || row.expiresAt.getTime() <= Date.now()) return ended;
    // The console session that opened it, as it is now: ended (logout, expiry, deactivation) ends the page.
    const caller = await this.callerOfSession(row.consoleTokenHash);
    if (!caller || caller === 'expired' || caller.userId !== row.userId || caller.sessionId !== row.sessionId) return ended;
    const d = row.device;
    // The grant and the locations as they are now; a device that moved address is not followed.
    if (!caller.grants.has(DEVICE_WEB_GRANT) || !inScope(caller, d.locationId)) return { status: 403, messageKey: 'errors.FORBIDDEN' };
    if (d.ip !== row.host) return ended;
    let tail = call.tail;
    if (this.origin) {
      // Only on the session's own host, and only from the browser that swapped its ticket.
      if (labelOfHost(this.origin, call.headers.host as string | undefined) !== row.hostLabel) return ended;
      const asked = ticketOf(tail);
      if (asked.ticket) return this.swap(row, call.token, asked.ticket);
      const cookie = cookieValue(call.headers.cookie, DEVICE_WEB_COOKIE);
      if (!cookie || !row.cookieHash || hashToken(cookie) !== row.cookieHash) return { status: 403, messageKey: 'deviceWeb.otherBrowser' };
      tail = asked.tail;
    }
    if (!(DEVICE_WEB_METHODS as readonly string[]).includes(call.method)) return { status: 405, messageKey: 'deviceWeb.badMethod' };
    const path = devicePath(tail);
    if (path.length > 4000) return { status: 414, messageKey: 'deviceWeb.tooLong' };
    await this.log.byCaller(caller, {
      group: 'DEVICES', level: 'I', messageCode: 'device.webRequest', objectClass: 'DeviceDao', objectId: d.id, locationId: d.locationId,
      params: { device: d.serialNumber ?? d.ip, session: row.id, method: call.method, path: path.slice(0, 500) },
    });
    const target = { scheme: deviceWebScheme(row.port as DeviceWebPort), host: row.host, port: row.port as DeviceWebPort };
    const answer = await this.broker.send(row.agentId, {
      ...target, method: call.method as WebProxyRequest['method'], path,
      headers: requestHeadersForDevice(call.headers, row.cookies), body: call.body?.toString('base64') ?? '',
    });
    if ('error' in answer) return { status: 502, messageKey: 'deviceWeb.unreachable' };
    const body = 'stream' in answer ? answer.stream : Buffer.from(answer.body, 'base64');
    try {
      return await this.answerOf(row, call.token, target, path, { status: answer.status, headers: answer.headers, body });
    } catch (error) {
      // The agent's upload is ended rather than left waiting for a reader.
      if (!Buffer.isBuffer(body)) body.destroy();
      throw error;
    }
  }

  /** The ticket in the URL the console opened, swapped once for this browser's cookie; then the page without it. */
  private async swap(row: repo.WebSessionRow, token: string, ticket: string): Promise<ProxyAnswer> {
    const cookie = randomBytes(32).toString('base64url');
    if (!(await repo.swapTicket(this.db, row.id, hashToken(ticket), hashToken(cookie)))) return { status: 403, messageKey: 'deviceWeb.ticketUsed' };
    const headers: HeaderPairs = [['location', `${DEVICE_WEB_PREFIX}${token}/`], ['set-cookie', sessionCookie(this.origin!, cookie, row.expiresAt)]];
    for (const [k, v] of Object.entries(this.headers)) headers.push([k, v]);
    return { status: 302, headers, body: Buffer.alloc(0) };
  }

  /**
   * The device's answer as the browser gets it: our headers, its redirects kept on the device,
   * HTML and CSS read whole to keep their links in the session, anything else streamed as it comes.
   */
  private async answerOf(row: repo.DeviceWebRow, token: string, target: { scheme: string; host: string; port: number }, path: string, answer: DeviceAnswer): Promise<ProxyAnswer> {
    const setCookies = answer.headers.filter(([n]) => n.toLowerCase() === 'set-cookie').map(([, v]) => v);
    if (setCookies.length) {
      const jar = updateJar(row.cookies, setCookies);
      if (JSON.stringify(jar) !== JSON.stringify(row.cookies)) await repo.setWebSessionCookies(this.db, row.id, jar);
    }
    const headers: HeaderPairs = [];
    for (const [name, value] of answer.headers) {
      const lower = name.toLowerCase();
      if (lower === 'location') {
        const to = rewriteLocation(value, token, target, path);
        // A redirect to another host or port is never followed, nor handed to the browser.
        if (to === null) {
          if (!Buffer.isBuffer(answer.body)) answer.body.destroy();
          return { status: 502, messageKey: 'deviceWeb.redirectRefused' };
        }
        headers.push(['location', to]);
      } else if (!DROPPED_HEADER.test(lower)) headers.push([lower, value]);
    }
    const type = answer.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? '';
    const encoded = answer.headers.some(([n, v]) => n.toLowerCase() === 'content-encoding' && v.toLowerCase() !== 'identity');
    let body = answer.body;
    if (!encoded && /^(text\/html|text\/css|application\/xhtml)/i.test(type)) {
      const whole = Buffer.isBuffer(body) ? body : await wholeOf(body, DEVICE_WEB_MAX_BODY).catch(() => 'failed' as const);
      if (whole === 'failed') return { status: 502, messageKey: 'deviceWeb.unreachable' };
      if (!whole) return { status: 502, messageKey: 'deviceWeb.tooLarge' };
      body = Buffer.from(rewriteLinks(whole.toString('latin1'), token), 'latin1');
    } else if (!Buffer.isBuffer(body)) body = upTo(body, DEVICE_WEB_MAX_BODY);
    for (const [k, v] of Object.entries(this.headers)) headers.push([k, v]);
    return { status: answer.status, headers, body };
  }
}

/** Response headers the device may not set (ours, or the browser's security). */
const DROPPED_HEADER = /^(set-cookie|connection|keep-alive|transfer-encoding|content-length|content-security-policy(-report-only)?|strict-transport-security|x-frame-options|access-control-.*|clear-site-data|refresh|upgrade|trailer|proxy-.*|alt-svc|cross-origin-.*|referrer-policy|cache-control|x-content-type-options)$/;

function view(row: repo.DeviceWebRow, url: string | null): DeviceWebSession {
  return { id: row.id, deviceId: row.deviceId, port: row.port, url, createdAt: row.createdAt.toISOString(), expiresAt: row.expiresAt.toISOString() };
}

