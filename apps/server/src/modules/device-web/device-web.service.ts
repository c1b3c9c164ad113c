import { randomBytes } from 'node:crypto';
import {
  DEVICE_WEB_METHODS, DEVICE_WEB_PREFIX, DEVICE_WEB_SESSION_MS, deviceWebScheme,
  type DeviceWebPort, type DeviceWebSession, type WebProxyRequest,
} from '@pagewatch/contracts/device-web';
import { conflict, forbidden, notFound } from '../../lib/app-error.ts';
import { inScope, type Caller } from '../../lib/caller.ts';
import { hashToken } from '../../plugins/access.ts';
import type { Db } from '../../db/client.ts';
import { DomainService, type EventLog } from '../event-logs/index.ts';
import { deviceInScope } from '../devices/index.ts';
import type { DeviceWebBroker } from './device-web.broker.ts';
import { DEVICE_WEB_HEADERS, devicePath, requestHeadersForDevice, rewriteLinks, rewriteLocation, updateJar, type HeaderPairs } from './device-web.headers.ts';
import * as repo from './device-web.repository.ts';
import './device-web.messages.ts';

export type ConsoleSessionResolver = (tokenHash: string) => Promise<Caller | null | 'expired'>;
export const DEVICE_WEB_GRANT = 'BTN_DEVICE_WEB.EXECUTE';
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** A browser's request on a session's path. */
export type ProxyCall = { token: string; method: string; tail: string; headers: Record<string, string | string[] | undefined>; body: Buffer | null };
/** What the browser is answered: a status, headers and bytes; `messageKey` when the answer is ours, not the device's. */
export type ProxyAnswer = { status: number; headers: HeaderPairs; body: Buffer } | { status: number; messageKey: string };

/**
 * The device's own web page through its agent (issue 55). A user with BTN_DEVICE_WEB.EXECUTE
 * opens a session for a device of their locations; the page is then proxied under
 * /device-web/<token>/ for at most 30 minutes, until closed, or until the console session that
 * opened it ends. Every request checks the grant and the locations again and is in the event log.
 * The path's token is not bound to the browser by a cookie: the page is served with a CSP sandbox
 * (an opaque origin, so it can never read the console's storage), and browsers treat every request
 * such a page makes as cross-site, so a Strict or Lax cookie is not sent and a SameSite=None one is
 * blocked with third-party cookies (w3c/webappsec-csp#664). Binding needs the pages on an origin of
 * their own (then no sandbox, and a cookie of that origin).
 */
export class DeviceWebService extends DomainService {
  private readonly broker: DeviceWebBroker;
  private readonly callerOfSession: ConsoleSessionResolver;
  /** `callerOfSession`: the console's own session resolver (cached, and forgotten on every change of the user, as for the API). */
  constructor(db: Db, log: EventLog, broker: DeviceWebBroker, callerOfSession: ConsoleSessionResolver) {
    super(db, log);
    this.broker = broker;
    this.callerOfSession = callerOfSession;
  }

  async open(caller: Caller, deviceId: number, port: DeviceWebPort): Promise<DeviceWebSession> {
    if (!caller.sessionId) throw forbidden('apiTokens.sessionOnly');
    const { d } = await deviceInScope(this.db, caller, deviceId);
    if (d.agentId === null) throw conflict('deviceWeb.noAgent');
    const token = randomBytes(32).toString('base64url');
    const row = await this.db.transaction(async (tx) => {
      const created = await repo.insertWebSession(tx, {
        tokenHash: hashToken(token), userId: caller.userId, sessionId: caller.sessionId, deviceId, agentId: d.agentId!, host: d.ip, port,
        expiresAt: new Date(Math.min(Date.now() + DEVICE_WEB_SESSION_MS, caller.sessionExpiresAt.getTime())),
      });
      await this.log.byCaller(caller, {
        group: 'DEVICES', level: 'I', messageCode: 'device.webOpened', objectClass: 'DeviceDao', objectId: deviceId, locationId: d.locationId,
        params: { device: d.serialNumber ?? d.ip, session: created.id, port },
      }, tx);
      return created;
    });
    return view(row, `${DEVICE_WEB_PREFIX}${token}/`);
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
    if (!(DEVICE_WEB_METHODS as readonly string[]).includes(call.method)) return { status: 405, messageKey: 'deviceWeb.badMethod' };
    const path = devicePath(call.tail);
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
    return this.answerOf(row, call.token, target, path, answer);
  }

  private async answerOf(row: repo.DeviceWebRow, token: string, target: { scheme: string; host: string; port: number }, path: string, answer: { status: number; headers: HeaderPairs; body: string }): Promise<ProxyAnswer> {
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
        if (to === null) return { status: 502, messageKey: 'deviceWeb.redirectRefused' };
        headers.push(['location', to]);
      } else if (!DROPPED_HEADER.test(lower)) headers.push([lower, value]);
    }
    let body = Buffer.from(answer.body, 'base64');
    const type = answer.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? '';
    const encoded = answer.headers.some(([n, v]) => n.toLowerCase() === 'content-encoding' && v.toLowerCase() !== 'identity');
    if (!encoded && /^(text\/html|text\/css|application\/xhtml)/i.test(type)) body = Buffer.from(rewriteLinks(body.toString('latin1'), token), 'latin1');
    for (const [k, v] of Object.entries(DEVICE_WEB_HEADERS)) headers.push([k, v]);
    return { status: answer.status, headers, body };
  }
}

/** Response headers the device may not set (ours, or the browser's security). */
const DROPPED_HEADER = /^(set-cookie|connection|keep-alive|transfer-encoding|content-length|content-security-policy(-report-only)?|strict-transport-security|x-frame-options|access-control-.*|clear-site-data|refresh|upgrade|trailer|proxy-.*|alt-svc|cross-origin-.*|referrer-policy|cache-control|x-content-type-options)$/;

function view(row: repo.DeviceWebRow, url: string | null): DeviceWebSession {
  return { id: row.id, deviceId: row.deviceId, port: row.port, url, createdAt: row.createdAt.toISOString(), expiresAt: row.expiresAt.toISOString() };
}

