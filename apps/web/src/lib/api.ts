import type { ErrorBody } from '@pagewatch/contracts/errors';
import i18n from '../i18n/i18n.ts';

/** Where the API lives (from /config.json, kept in local storage like the token). */
const API_KEY = 'pagewatch.api';
const TOKEN_KEY = 'pagewatch.token';

export function apiBase(): string {
  return localStorage.getItem(API_KEY) ?? '/api';
}
export function setApiBase(base: string) {
  localStorage.setItem(API_KEY, base);
}
export function getToken(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}
export function setToken(token: string | null) {
  if (token) localStorage.setItem(TOKEN_KEY, token);
  else localStorage.removeItem(TOKEN_KEY);
}

/** The code of the error raised locally when a protected call is made without a token. */
export const NO_TOKEN = 'NO_TOKEN';

/** An API failure: `status` 0 means the server could not be reached. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ErrorBody | null;
  /** The session is over (401 with a token, or no token): the app re-enters at login. */
  readonly sessionEnded: boolean;
  constructor(status: number, message: string, body: ErrorBody | null, sessionEnded = false) {
    super(message);
    this.status = status;
    this.body = body;
    this.sessionEnded = sessionEnded;
  }
}

/**
 * Called when a call made with a token comes back 401 (expired or revoked session) or a
 * protected call finds no token. The session layer registers it to re-enter the app at the
 * login form; the token is already cleared by then.
 */
let authErrorHandler: (() => void) | null = null;
export function setAuthErrorHandler(handler: (() => void) | null) {
  authErrorHandler = handler;
}

type Options = Omit<RequestInit, 'body'> & {
  body?: unknown;
  query?: string | URLSearchParams;
  /** A call that needs no session (sign-in, forgot password, demo request). */
  public?: boolean;
};

export async function api<T>(path: string, opts: Options = {}): Promise<T> {
  const { body: rawBody, query, public: isPublic, ...init } = opts;
  const headers = new Headers(init.headers);
  // The server answers in the console's language (messages are shown as they come).
  if (!headers.has('Accept-Language')) headers.set('Accept-Language', i18n.language || 'en');
  const token = getToken();
  const bearer = Boolean(token) && !headers.has('Authorization');
  if (bearer) headers.set('Authorization', `Bearer ${token}`);
  else if (!token && !isPublic && !headers.has('Authorization')) {
    // Spec section 8: "no token" is its own error and an authentication error.
    authErrorHandler?.();
    const message = i18n.t('errors.noToken');
    throw new ApiError(401, message, { code: NO_TOKEN, message }, true);
  }
  let body: BodyInit | undefined;
  if (rawBody instanceof FormData) body = rawBody;
  else if (rawBody !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(rawBody);
  }
  const qs = query ? `?${query.toString()}` : '';
  const url = `${apiBase()}${path}${qs}`;
  let res: Response;
  try {
    res = await fetch(url, { ...init, headers, body });
  } catch {
    throw new ApiError(0, url, null);
  }
  const sessionEnded = res.status === 401 && bearer;
  if (sessionEnded) {
    setToken(null);
    authErrorHandler?.();
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!res.ok) {
    const errBody = json && typeof json === 'object' && 'message' in json ? (json as ErrorBody) : null;
    // An HTML error page is reduced to its text (spec section 8).
    const message = errBody?.message ?? htmlToText(text).slice(0, 1000);
    throw new ApiError(res.status, message, errBody, sessionEnded);
  }
  return json as T;
}

export function htmlToText(html: string): string {
  if (!/<[a-z][\s\S]*>/i.test(html)) return html;
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return (doc.body.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** `Authorization: Basic …` for a login and password; UTF-8 safe, unlike a bare btoa. */
export function basicAuth(login: string, password: string): string {
  const bytes = new TextEncoder().encode(`${login}:${password}`);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return `Basic ${btoa(binary)}`;
}
