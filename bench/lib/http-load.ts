import { connect, type Socket } from 'node:net';

export type Answer = { status: number; body: Buffer };

/**
 * One keep-alive HTTP/1.1 connection that sends GET requests one at a time, as a small load
 * generator does: requests are written as bytes and answers read by their Content-Length, so
 * the generator spends little of the CPU it shares with the server it measures (Node's fetch
 * costs several times more per request).
 */
export class LoadConnection {
  private readonly socket: Socket;
  private readonly host: string;
  private buffer = Buffer.alloc(0);
  private waiting: { resolve: (a: Answer) => void; reject: (e: Error) => void } | null = null;

  private constructor(socket: Socket, host: string) {
    this.socket = socket;
    this.host = host;
    socket.setNoDelay(true);
    socket.on('data', (chunk) => {
      this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
      this.answer();
    });
    const fail = (err: Error) => {
      this.waiting?.reject(err);
      this.waiting = null;
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('connection closed')));
  }

  static open(url: string): Promise<LoadConnection> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connect({ host: hostname, port: Number(port) }, () => resolve(new LoadConnection(socket, `${hostname}:${port}`)));
      socket.once('error', reject);
    });
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
    if (this.waiting) throw new Error('one request at a time');
    const lines = [`GET ${path} HTTP/1.1`, `Host: ${this.host}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    });
  }

  close() {
    this.socket.destroy();
  }

  /** A whole answer in the buffer: its status line, headers and Content-Length bytes of body. */
  private answer() {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0 || !this.waiting) return;
    const head = this.buffer.toString('latin1', 0, end);
    const status = Number(head.slice(9, 12));
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    if (!length) {
      this.waiting.reject(new Error(`answer without Content-Length: ${head.split('\r\n')[0]}`));
      this.waiting = null;
      return;
    }
    const total = end + 4 + Number(length[1]);
    if (this.buffer.length < total) return;
    const body = this.buffer.subarray(end + 4, total);
    this.buffer = this.buffer.subarray(total);
    const { resolve } = this.waiting;
    this.waiting = null;
    resolve({ status, body });
  }
}
