import { test } from '@playwright/test';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

/**
 * A real SMTP server on 127.0.0.1 for the specs that send e-mail: every message it accepts,
 * its raw text with quoted-printable soft line breaks joined. Plain SMTP, no STARTTLS.
 */
export async function mailbox(): Promise<{ received: string[]; port: number; close: () => Promise<void> }> {
  const received: string[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, done) {
      let data = '';
      stream.on('data', (c: Buffer) => (data += c.toString()));
      stream.on('end', () => (received.push(data.replace(/=\r\n/g, '')), done()));
    },
  });
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
  return { received, port: (smtp.server.address() as AddressInfo).port, close: () => new Promise<void>((r) => smtp.close(() => r())) };
}

/** A test with a `mail` box of its own, closed after it whatever happened (the specs that send e-mail). */
export const mailTest = test.extend<{ mail: Awaited<ReturnType<typeof mailbox>> }>({
  // The empty pattern is Playwright's: it reads a fixture's dependencies from it (none here).
  mail: async ({}, use) => {
    const box = await mailbox();
    await use(box);
    await box.close();
  },
});
