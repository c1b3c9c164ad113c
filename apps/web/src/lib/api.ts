import type { ErrorBody } from '@pagewatch/contracts/errors';

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

/** An API failure: `status` 0 means the server could not be reached. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ErrorBody | null;
  constructor(status: number, message: string, body: ErrorBody | null) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

type Options = Omit<RequestInit, 'body'> & { body?: unknown; query?: string };

export async function api<T>(path: string, opts: Options = {}): Promise<T> {
  const headers = new Headers(opts.headers);
  const token = getToken();
  if (token && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) body = opts.body;
  else if (opts.body !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(opts.body);
  }
  const url = `${apiBase()}${path}${opts.query ? `?${opts.query}` : ''}`;
  let res: Response;
  try {
    res = await fetch(url, { ...opts, headers, body });
  } catch {
    throw new ApiError(0, url, null);
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
    throw new ApiError(res.status, message, errBody);
  }
  return json as T;
}

export function htmlToText(html: string): string {
  if (!/<[a-z][\s\S]*>/i.test(html)) return html;
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return (doc.body.textContent ?? '').replace(/\s+/g, ' ').trim();
}
