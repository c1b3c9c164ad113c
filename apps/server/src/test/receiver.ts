import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Received = { path: string; headers: Record<string, string | string[] | undefined>; body: string };

/**
 * A local HTTP receiver for the channels' tests (issue 42): it records every request and answers
 * 200 (Telegram's `{"ok":true}` on its paths) unless `answers` holds the next status to give.
 */
export async function receiver() {
  const received: Received[] = [];
  const answers: number[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body });
      const status = answers.shift() ?? 200;
      const telegram = (req.url ?? '').includes('/sendMessage');
      res.writeHead(status, { 'content-type': 'application/json' }).end(telegram ? JSON.stringify(status === 200 ? { ok: true, result: {} } : { ok: false, description: 'Bad Request: chat not found' }) : status === 200 ? 'ok' : 'receiver says no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    received,
    answers,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type Receiver = Awaited<ReturnType<typeof receiver>>;
