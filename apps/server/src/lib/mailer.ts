import nodemailer from 'nodemailer';
import type { Db } from '../db/client.ts';
import { settingValues } from '../modules/settings/settings.repository.ts';
import { AppError } from './app-error.ts';

export type Mail = { to: string | string[]; subject: string; text?: string; html?: string; attachments?: { filename: string; content: Buffer | string }[] };

const SMTP_CODES = ['SMTP_HOST', 'SMTP_PORT', 'SMTP_USERNAME', 'SMTP_PASSWORD', 'SMTP_SSL', 'SMTP_TRUST-ALL', 'SMTP_START-TLS', 'SMTP_FROM'];

async function smtpSettings(db: Db) {
  const s = await settingValues(db, SMTP_CODES);
  if (!s.SMTP_HOST || !s.SMTP_PORT || !s.SMTP_FROM) throw new AppError('SMTP_NOT_CONFIGURED');
  return s;
}

/** Throws SMTP_NOT_CONFIGURED unless mail could be sent (without sending any). */
export async function assertMailConfigured(db: Db): Promise<void> {
  await smtpSettings(db);
}

/** Sends one message with the SMTP settings of the settings table. */
export async function sendMail(db: Db, mail: Mail): Promise<void> {
  const s = await smtpSettings(db);
  const startTls = String(s['SMTP_START-TLS'] ?? 'OPTIONAL');
  const transport = nodemailer.createTransport({
    host: String(s.SMTP_HOST),
    port: Number(s.SMTP_PORT),
    secure: s.SMTP_SSL === true,
    ignoreTLS: startTls === 'DISABLED',
    requireTLS: startTls === 'REQUIRED',
    auth: s.SMTP_USERNAME ? { user: String(s.SMTP_USERNAME), pass: String(s.SMTP_PASSWORD ?? '') } : undefined,
    tls: { rejectUnauthorized: s['SMTP_TRUST-ALL'] !== true },
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  try {
    await transport.sendMail({ from: String(s.SMTP_FROM), ...mail });
  } catch (err) {
    throw new AppError('MAIL_FAILED', { params: { reason: (err as Error).message.slice(0, 300) } });
  } finally {
    transport.close();
  }
}
