import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

export type Mailbox = { received: string[]; port: number; close: () => Promise<void>; logins: string[] };

/**
 * A real SMTP server on 127.0.0.1 for tests: every message it accepts, its raw text with
 * quoted-printable soft line breaks joined. Without TLS unless asked (then a self-signed
 * certificate, made by smtp-server itself).
 */
export async function mailbox(opts: { secure?: boolean; beforeAccept?: (raw: string) => Promise<void> | void; auth?: { user: string; pass: string } } = {}): Promise<Mailbox> {
  const received: string[] = [];
  const logins: string[] = [];
  const server = new SMTPServer({
    // A close ends the connections a pooled sender keeps open after half a second, not after
    // smtp-server's 30 s: a test's mailbox is closed when the test is done with it.
    closeTimeout: 500,
    // With `auth`, a message is taken only after a sign-in with exactly that user and password.
    authOptional: !opts.auth,
    allowInsecureAuth: !!opts.auth,
    onAuth(auth, _session, done) {
      if (opts.auth && auth.username === opts.auth.user && auth.password === opts.auth.pass) {
        logins.push(auth.username!);
        return done(null, { user: auth.username });
      }
      return done(new Error('Invalid username or password'));
    },
    secure: opts.secure ?? false,
    disabledCommands: opts.secure ? [] : ['STARTTLS'],
    onData(stream, _session, done) {
      let data = '';
      stream.on('data', (c: Buffer) => (data += c.toString()));
      stream.on('end', () => {
        received.push(data.replace(/=\r\n/g, ''));
        // Taken in full: a test may hold the answer back (the client does not know yet that it was).
        void Promise.resolve(opts.beforeAccept?.(data)).then(() => done());
      });
    },
  });
  // A client that refuses the certificate closes the connection: expected, not a test failure.
  server.on('error', () => undefined);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { received, logins, port: (server.server.address() as AddressInfo).port, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** Points the instance's SMTP settings at a test mailbox (plain SMTP, no SSL, no start-TLS). */
export async function smtpSettingsFor(db: Db, port: number) {
  await db.execute(sql`UPDATE settings SET flag_value = false WHERE code IN ('SMTP_SSL', 'SMTP_TRUST-ALL')`);
  await db.execute(sql`UPDATE settings SET string_value = '127.0.0.1' WHERE code = 'SMTP_HOST'`);
  await db.execute(sql`UPDATE settings SET numeric_value = ${port} WHERE code = 'SMTP_PORT'`);
  await db.execute(sql`UPDATE settings SET string_value = 'pagewatch@example.com' WHERE code = 'SMTP_FROM'`);
  await db.execute(sql`UPDATE settings SET string_value = 'DISABLED' WHERE code = 'SMTP_START-TLS'`);
}

export type MailPart = { contentType: string; filename: string | null; body: Buffer; text: string };

/**
 * The leaf parts of a raw message as the mailbox keeps it (soft line breaks already joined):
 * each with its type, file name and decoded body (base64 or quoted-printable), multiparts opened.
 */
export function mailParts(raw: string): MailPart[] {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1] ?? '';
  const type = header('Content-Type') || 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    return body
      .split(`--${boundary}`)
      .slice(1, -1)
      .flatMap((part) => mailParts(part.replace(/^\r\n/, '')));
  }
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const decoded =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64')
      : encoding === 'quoted-printable'
        ? Buffer.from(body.replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1')
        : Buffer.from(body, 'utf8');
  const filename = /filename\*?=(?:utf-8'')?"?([^";\r\n]+)"?/i.exec(head)?.[1] ?? null;
  return [{ contentType: type.split(';')[0].trim().toLowerCase(), filename: filename && decodeURIComponent(filename), body: decoded, text: decoded.toString('utf8').replace(/\r\n$/, '') }];
}
