import nodemailer, { type Transporter } from 'nodemailer';
import { AppError } from './app-error.ts';
import { htmlToText } from './mail-text.ts';

export type Mail = {
  to: string | string[];
  subject: string;
  text?: string;
  html?: string;
  attachments?: { filename: string; content: Buffer | string; contentType?: string }[];
  /** A stable Message-ID: the same message sent again is known as such by the receiving server. */
  messageId?: string;
};

/** Where mail goes out (the SMTP settings, read by the settings module). */
export type SmtpSettings = {
  host: string;
  port: number;
  username: string | null;
  password: string | null;
  ssl: boolean;
  trustAll: boolean;
  startTls: 'OPTIONAL' | 'DISABLED' | 'REQUIRED';
  from: string;
};

/** A transport for the settings; `pool` keeps a few connections open for many messages. */
export function mailTransport(smtp: SmtpSettings, pool = false): Transporter {
  return nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.ssl,
    ignoreTLS: smtp.startTls === 'DISABLED',
    requireTLS: smtp.startTls === 'REQUIRED',
    auth: smtp.username ? { user: smtp.username, pass: smtp.password ?? '' } : undefined,
    tls: { rejectUnauthorized: !smtp.trustAll },
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
    ...(pool ? { pool: true, maxConnections: 3, maxMessages: 500 } : {}),
  });
}

/**
 * Sends one message on a transport; a failure is MAIL_FAILED with the reason. An HTML mail gets
 * its plain-text part beside it (from the HTML, unless the caller gave one).
 */
export async function sendOn(transport: Transporter, smtp: SmtpSettings, mail: Mail): Promise<void> {
  const text = mail.text ?? (mail.html === undefined ? undefined : htmlToText(mail.html));
  try {
    await transport.sendMail({ from: smtp.from, ...mail, text });
  } catch (err) {
    throw new AppError('MAIL_FAILED', { params: { reason: (err as Error).message.slice(0, 300) } });
  }
}

/** Sends one message through the given SMTP server on a connection of its own. */
export async function sendMail(smtp: SmtpSettings, mail: Mail): Promise<void> {
  const transport = mailTransport(smtp);
  try {
    await sendOn(transport, smtp, mail);
  } finally {
    transport.close();
  }
}
