import { ApiError, apiBase, getToken } from './api.ts';
import i18n from '../i18n/i18n.ts';

/** The file name of a `Content-Disposition: attachment; filename="…"` header (RFC 6266, with filename*). */
export function dispositionFileName(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(header);
  return plain ? plain[1].trim() : fallback;
}

/**
 * A blob download (spec section 7): the file is saved under the name from the response header.
 * Errors come back as ApiError with the server's message, like `api()` (a server busy with other
 * files says so and when to try again, issue 39). A file the server queued behind others answers
 * at once with `X-Export-Queued` (how many are before it): `onQueued` hears it before the wait.
 */
export async function downloadFile(path: string, fallbackName: string, onQueued?: (ahead: number) => void): Promise<{ fileName: string; headers: Headers }> {
  const token = getToken();
  const url = `${apiBase()}${path}`;
  let res: Response;
  try {
    res = await fetch(url, { headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), 'Accept-Language': i18n.language || 'en' } });
  } catch {
    throw new ApiError(0, url, null);
  }
  if (!res.ok) {
    const text = await res.text();
    let body: { code: string; message: string } | null = null;
    try {
      body = JSON.parse(text) as { code: string; message: string };
    } catch {
      body = null;
    }
    throw new ApiError(res.status, body?.message ?? text.slice(0, 1000), body, res.status === 401);
  }
  const ahead = Number(res.headers.get('X-Export-Queued') ?? 0);
  if (ahead > 0) onQueued?.(ahead);
  const blob = await res.blob();
  const fileName = dispositionFileName(res.headers.get('Content-Disposition'), fallbackName);
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
  return { fileName, headers: res.headers };
}
