import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it, vi } from 'vitest';

// The catalogue in node: i18n from the real locale files (i18n.ts needs Vite's glob), toasts
// recorded instead of rendered, and the little of the browser that the API client reads.
vi.mock('../i18n/i18n.ts', async () => {
  const i18next = (await import('i18next')).default;
  const dir = fileURLToPath(new URL('../i18n/locales/', import.meta.url));
  const load = (lang: string) =>
    Object.fromEntries(
      readdirSync(join(dir, lang)).map((f) => [basename(f, '.json'), JSON.parse(readFileSync(join(dir, lang, f), 'utf8'))]),
    );
  const instance = i18next.createInstance();
  await instance.init({
    lng: 'en',
    resources: { en: { translation: load('en') }, ru: { translation: load('ru') } },
    interpolation: { escapeValue: false },
  });
  return { default: instance };
});
vi.mock('./toast.ts', () => ({ showToast: vi.fn() }));

Object.assign(globalThis, {
  localStorage: { getItem: () => null, setItem: () => {}, removeItem: () => {} },
  window: { location: { origin: 'http://console.test' } },
});

const { ApiError, NO_TOKEN } = await import('./api.ts');
const { errorMessage, notifyError, notifyQueued, notifySuccess, wsCloseMessage } = await import('./errors.ts');
const { downloadFile } = await import('./download.ts');
const { showToast } = await import('./toast.ts');
const i18n = (await import('../i18n/i18n.ts')).default;

beforeEach(async () => {
  vi.mocked(showToast).mockClear();
  await i18n.changeLanguage('en');
});

describe('errorMessage', () => {
  it('says the credentials are wrong for a 401', () => {
    expect(errorMessage(new ApiError(401, 'whatever', { code: 'BAD_CREDENTIALS', message: 'x' }))).toBe(
      'Invalid user name or password',
    );
  });
  it('says the user is not authorized when there is no token', () => {
    expect(errorMessage(new ApiError(401, '', { code: NO_TOKEN, message: '' }))).toBe('User is not authorized');
  });
  it('names the server when there is no answer or the API is not there', () => {
    const text = 'Could not connect to server: http://console.test/api';
    expect(errorMessage(new ApiError(0, '/api/users', null))).toBe(text);
    expect(errorMessage(new ApiError(404, 'Not Found', null))).toBe(text);
  });
  it("shows a 404's own message when the server gave one", () => {
    expect(errorMessage(new ApiError(404, 'User 7 not found', { code: 'NOT_FOUND', message: 'User 7 not found' }))).toBe(
      'User 7 not found',
    );
  });
  it("shows a 429's own message, the wait included (sign-in slowed: the login form's alert)", () => {
    const message = 'Too many failed sign-ins with this login; try again in 8 seconds, or from a browser you have signed in from before';
    expect(errorMessage(new ApiError(429, message, { code: 'TOO_MANY_ATTEMPTS', message }))).toBe(message);
  });
  it('prefers the details of a validation error', () => {
    const body = { code: 'VALIDATION', message: 'Invalid', details: [{ field: 'a', message: 'A is bad' }, { field: 'b', message: 'B too' }] };
    expect(errorMessage(new ApiError(400, 'Invalid', body))).toBe('A is bad\nB too');
  });
  it('cuts long texts at 1000 characters', () => {
    expect(errorMessage(new ApiError(500, 'x'.repeat(5000), null))).toHaveLength(1000);
  });
  it('answers in the current language', async () => {
    await i18n.changeLanguage('ru');
    expect(errorMessage(new ApiError(401, '', null))).toBe('Неверное имя пользователя или пароль');
  });
});

describe('toasts', () => {
  it('keeps errors for 3 s', () => {
    notifyError(new Error('Boom'));
    expect(showToast).toHaveBeenCalledWith(expect.objectContaining({ message: 'Boom', color: 'red', autoClose: 3000 }));
  });
  it('stays quiet when the session has ended (the app re-enters at the login form)', () => {
    notifyError(new ApiError(401, 'expired', { code: 'TOKEN_EXPIRED', message: 'expired' }, true));
    expect(showToast).not.toHaveBeenCalled();
  });
  it.each([
    ['created', 1500],
    ['updated', 1500],
    ['deleted', 1500],
    ['upload', 3000],
    ['testSent', 3000],
    ['genFile', 3000],
  ] as const)('keeps %s for %i ms', (kind, ms) => {
    notifySuccess(kind);
    expect(showToast).toHaveBeenCalledWith(expect.objectContaining({ autoClose: ms, color: 'green' }));
  });
});

describe('an export the server queued or refused (issue 39)', () => {
  /** A real HTTP server answering as the API does: a queued file (X-Export-Queued) and a refusal. */
  async function withApi(run: () => Promise<void>) {
    const server = createServer((req, res) => {
      if (req.url?.startsWith('/api/queued')) {
        res.writeHead(200, { 'X-Export-Queued': '3', 'Content-Disposition': 'attachment; filename="r.csv"' }).end('a,b\r\n');
      } else {
        res.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '30' })
          .end(JSON.stringify({ code: 'EXPORTS_BUSY', message: 'Сервер занят формированием других файлов, и очередь заполнена; повторите через 30 с' }));
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const saved = { storage: globalThis.localStorage, document: (globalThis as { document?: unknown }).document };
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
    Object.assign(globalThis, {
      localStorage: { getItem: (k: string) => (k === 'pagewatch.api' ? base : null), setItem: () => {}, removeItem: () => {} },
      document: { createElement: () => ({ click: () => {}, remove: () => {} }), body: { appendChild: () => {} } },
    });
    try {
      await run();
    } finally {
      Object.assign(globalThis, saved);
      server.close();
    }
  }

  it('tells the user the file is queued, and how many are before it, before the file comes', async () => {
    await withApi(async () => {
      const queued = vi.fn(notifyQueued);
      expect((await downloadFile('/queued', 'x.csv', queued)).fileName).toBe('r.csv');
      expect(queued).toHaveBeenCalledWith(3);
      expect(showToast).toHaveBeenCalledWith(expect.objectContaining({
        message: 'The server is making other files first (3 before yours): yours is queued and downloads when its turn comes',
      }));
      await i18n.changeLanguage('ru');
      notifyQueued(3);
      expect(showToast).toHaveBeenLastCalledWith(expect.objectContaining({ message: 'Сервер сначала формирует другие файлы (перед вашим: 3): ваш файл в очереди и загрузится, когда подойдёт его черёд' }));
    });
  });

  it("shows the server's refusal and when to try again, in the user's language", async () => {
    await withApi(async () => {
      const err = await downloadFile('/busy', 'x.csv').catch((e: unknown) => e);
      notifyError(err);
      expect(showToast).toHaveBeenCalledWith(expect.objectContaining({ color: 'red', message: 'Сервер занят формированием других файлов, и очередь заполнена; повторите через 30 с' }));
    });
  });
});

describe('wsCloseMessage', () => {
  it('gives the standard description of the code and the reason', () => {
    expect(wsCloseMessage(1006, '')).toBe('WebSocket error: Abnormal closure');
    expect(wsCloseMessage(1008, 'token expired')).toBe('WebSocket error: Policy violation token expired');
    expect(wsCloseMessage(4001, '')).toBe('WebSocket error: Application-defined code 4001');
  });
  it('is translated', async () => {
    await i18n.changeLanguage('ru');
    expect(wsCloseMessage(1011, '')).toBe('Ошибка вебсокета: Внутренняя ошибка сервера');
  });
});
