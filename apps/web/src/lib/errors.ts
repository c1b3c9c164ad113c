import { showToast } from './toast.ts';
import i18n from '../i18n/i18n.ts';
import { ApiError, apiBase, htmlToText, NO_TOKEN } from './api.ts';

/**
 * The error catalogue of spec section 8: what the user reads for a failure, and the toasts
 * with their durations. Every screen reports through here so that the wording is one.
 */

export const ERROR_TOAST_MS = 3000;
export const MAX_ERROR_LENGTH = 1000;

/** Success toasts and how long they stay (section 8). */
const SUCCESS_TOASTS = {
  updated: 1500,
  created: 1500,
  deleted: 1500,
  licenseDeleted: 1500,
  modelsUploaded: 1500,
  upload: 3000,
  testSent: 3000,
  genFile: 3000,
} as const;
export type SuccessKind = keyof typeof SUCCESS_TOASTS;

/** The server address shown in "could not connect": the API base as an absolute URL. */
function serverAddress(): string {
  try {
    return new URL(apiBase(), window.location.origin).href;
  } catch {
    return apiBase();
  }
}

/** The text shown for any failure, at most 1000 characters, never HTML. */
export function errorMessage(err: unknown): string {
  const t = i18n.t.bind(i18n);
  let text: string;
  if (err instanceof ApiError) {
    const details = err.body?.details?.map((d) => d.message).filter(Boolean) ?? [];
    if (err.body?.code === NO_TOKEN) text = t('errors.noToken');
    else if (err.status === 401) text = t('errors.badCredentials');
    // A 404 with no error body means the API itself was not found, like no answer at all;
    // a 404 that names a missing item carries the server's message.
    else if (err.status === 0 || (err.status === 404 && !err.body)) {
      text = t('errors.noConnection', { address: serverAddress() });
    } else if (details.length) text = details.join('\n');
    else text = err.message || t('errors.unknown');
  } else if (err instanceof Error) text = err.message || t('errors.unknown');
  else text = typeof err === 'string' && err ? err : t('errors.unknown');
  return htmlToText(text).slice(0, MAX_ERROR_LENGTH);
}

/**
 * The error toast (3 s). Identical messages shown at once collapse into one toast. A call
 * that found the session over shows nothing: the app is already back at the login form.
 */
export function notifyError(err: unknown) {
  if (err instanceof ApiError && err.sessionEnded) return;
  const message = errorMessage(err);
  showToast({
    id: `error:${message}`,
    color: 'red',
    title: i18n.t('errors.title'),
    message,
    autoClose: ERROR_TOAST_MS,
  });
}

/** `notifySuccess('created')`: the success toast with the duration the spec gives it. */
export function notifySuccess(kind: SuccessKind) {
  showToast({ color: 'green', message: i18n.t(`notify.${kind}`), autoClose: SUCCESS_TOASTS[kind] });
}

/** A file the server queued behind `ahead` others (issue 39): the download follows when its turn comes. */
export function notifyQueued(ahead: number) {
  showToast({ color: 'blue', message: i18n.t('notify.fileQueued', { count: ahead }), autoClose: SUCCESS_TOASTS.genFile });
}

/** A message the server composed (service actions, forgot password), shown as is for 3 s. */
export function notifyMessage(message: string) {
  showToast({ color: 'blue', message: htmlToText(message).slice(0, MAX_ERROR_LENGTH), autoClose: 3000 });
}

/** RFC 6455 section 7.4.1 close codes; each has a description in `websocket.codes`. */
export const WS_CLOSE_CODES = [
  1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 1015,
] as const;

/** The standard description of a WebSocket close code, in the user's language. */
export function wsCloseDescription(code: number): string {
  const t = i18n.t.bind(i18n);
  if ((WS_CLOSE_CODES as readonly number[]).includes(code)) return t(`websocket.codes.${code}`);
  if (code >= 3000 && code <= 3999) return t('websocket.libraryCode', { code });
  if (code >= 4000 && code <= 4999) return t('websocket.applicationCode', { code });
  return t('websocket.unknownCode', { code });
}

/** "WebSocket error: <description> <reason>" for a close other than 1000. */
export function wsCloseMessage(code: number, reason: string): string {
  return i18n.t('websocket.error', { description: wsCloseDescription(code), reason }).trim();
}
