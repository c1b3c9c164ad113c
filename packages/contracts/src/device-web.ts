import { z } from 'zod';

/**
 * The device's own web page through its agent (issue 55). The console opens a session for a
 * device and a port; the server then proxies /device-web/<token>/… to the device through the
 * agent that reads it, which fetches it over its own outbound connection (a long poll of
 * GET /api/agent/web-requests, answers posted back).
 */

/** The only ports a session may reach: a printer's embedded web server. */
export const DEVICE_WEB_PORTS = [80, 443, 8080] as const;
export type DeviceWebPort = (typeof DEVICE_WEB_PORTS)[number];
/** 443 is HTTPS, the others plain HTTP. */
export const deviceWebScheme = (port: DeviceWebPort): 'http' | 'https' => (port === 443 ? 'https' : 'http');
/** A session lasts at most this long from its opening. */
export const DEVICE_WEB_SESSION_MS = 30 * 60_000;
/** The path prefix the server proxies a session under. */
export const DEVICE_WEB_PREFIX = '/device-web/';
/** The methods a page may use; CONNECT, TRACE and the rest are refused. */
export const DEVICE_WEB_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'] as const;
/** The largest request or response body carried (bytes): firmware uploads are not the point. */
export const DEVICE_WEB_MAX_BODY = 8 * 1024 * 1024;
/** Headers one request or response carries at most, and their sizes. */
const MAX_HEADERS = 100;

const portSchema = z.union([z.literal(80), z.literal(443), z.literal(8080)], 'deviceWeb.badPort');

export const deviceWebOpenSchema = z.object({ port: portSchema.default(80) });
export type DeviceWebOpen = z.input<typeof deviceWebOpenSchema>;

/** A session as the console sees it; `url`, the page's path on this server, only in the answer that opened it (the token is not kept). */
export const deviceWebSessionSchema = z.object({ id: z.number().int(), deviceId: z.number().int(), port: z.number().int(), url: z.string().nullable(), createdAt: z.string(), expiresAt: z.string() });
export type DeviceWebSession = z.infer<typeof deviceWebSessionSchema>;

const headerPairs = z.array(z.tuple([z.string().min(1).max(200), z.string().max(8000)])).max(MAX_HEADERS);
/** Base64 of at most DEVICE_WEB_MAX_BODY bytes. */
const body64 = z.string().max(Math.ceil(DEVICE_WEB_MAX_BODY / 3) * 4).regex(/^[A-Za-z0-9+/]*={0,2}$/);

/** One request an agent is to make to a device. */
export const webProxyRequestSchema = z.object({
  id: z.uuid(),
  scheme: z.enum(['http', 'https']),
  /** The device's address as an IP literal (never a name the agent would resolve). */
  host: z.union([z.ipv4(), z.ipv6()]),
  port: portSchema,
  method: z.enum(DEVICE_WEB_METHODS),
  /** Path and query, starting with a single `/`. */
  path: z.string().min(1).max(4000).regex(/^\/(?!\/)[^\s\\#]*$/),
  headers: headerPairs,
  body: body64,
});
export type WebProxyRequest = z.infer<typeof webProxyRequestSchema>;

/** GET /api/agent/web-requests: what waits for this agent (empty after the wait). */
export const webProxyRequestsSchema = z.object({ requests: z.array(webProxyRequestSchema).max(100) });
export const webProxyWaitSchema = z.object({ waitMs: z.coerce.number().int().min(0).max(25_000).default(25_000) });

/** POST /api/agent/web-requests/:id: the device's answer, or why there is none. */
export const webProxyResponseSchema = z.union([
  z.object({ status: z.number().int().min(100).max(599), headers: headerPairs, body: body64 }),
  z.object({ error: z.string().min(1).max(500) }),
]);
export type WebProxyResponse = z.infer<typeof webProxyResponseSchema>;

/**
 * POST /api/agent/web-requests/:id/stream (application/octet-stream): the device's answer as it
 * comes, so a large page's first bytes reach the browser before its last leave the device. The
 * body is the head's length (4 bytes, big-endian), the head (JSON: status and headers), then the
 * device's bytes as they arrive. Errors still go to POST /api/agent/web-requests/:id.
 */
export const webProxyHeadSchema = z.object({ status: z.number().int().min(100).max(599), headers: headerPairs });
export type WebProxyHead = z.infer<typeof webProxyHeadSchema>;
/** The largest head a streamed answer may start with (100 headers of 8,000 characters fit). */
export const WEB_PROXY_HEAD_MAX = 1024 * 1024;
