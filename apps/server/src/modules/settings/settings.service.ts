import { SETTING_RULES, SMTP_DESTINATION, SMTP_REAUTH, type Setting, type SettingCode, type SettingsUpdate, type TestEmail } from '@pagewatch/contracts/settings';
import { AppError, type FieldError } from '../../lib/app-error.ts';
import { sendMail, type SmtpSettings } from '../../lib/mailer.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { requireSecretsOnMove } from '../../lib/secrets.ts';
import { shownSettings, updateSetting, type SettingRow as Row } from './settings.repository.ts';
import { assertDefaultAdmin, type Caller } from '../../lib/caller.ts';
import { confirmPassword, countTestMail } from '../auth/index.ts';
import { translate, type Lang } from '../../i18n/messages.ts';
import './settings.messages.ts';
import { DomainService, type EventLog } from '../event-logs/index.ts';
import type { Db } from '../../db/client.ts';

type Value = string | number | boolean | null;

/** The column a value type keeps its value in. */
const FIELD = { S: 'stringValue', N: 'numericValue', D: 'dateValue', F: 'flagValue' } as const;

function view(r: Row): Setting {
  const hidden = r.isWriteOnly;
  return {
    code: r.code,
    name: r.name,
    valueType: r.valueType as Setting['valueType'],
    stringValue: hidden ? null : r.stringValue,
    numericValue: r.numericValue,
    dateValue: r.dateValue ? r.dateValue.toISOString() : null,
    flagValue: r.flagValue,
    systemComponent: r.systemComponent,
    isWriteOnly: r.isWriteOnly,
    isSet: r.stringValue != null && r.stringValue !== '' ? true : r.numericValue != null || r.dateValue != null || r.flagValue != null,
  };
}

/** Instance settings (SMTP, agent periodicity, log clearing); SYSTEM ones are never shown. */
export class SettingsService extends DomainService {
  /** Cloud mode: the settings are the dealer's, so only users of DEFAULT read them (spec section 6). */
  private readonly cloud: boolean;
  /** Seals the write-only values (the SMTP password): they are stored encrypted (issue 43). */
  private readonly secrets: SecretBox;
  private readonly smtp: () => Promise<SmtpSettings>;
  constructor(db: Db, log: EventLog, opts: { cloud?: boolean; secrets: SecretBox; smtp: () => Promise<SmtpSettings> }) {
    super(db, log);
    this.cloud = opts.cloud ?? false;
    this.secrets = opts.secrets;
    this.smtp = opts.smtp;
  }

  async list(caller: Caller): Promise<Setting[]> {
    if (this.cloud && !caller.seesUnlocated) throw new AppError('FORBIDDEN', { key: 'settings.cloudDefaultOnly' });
    const rows = await shownSettings(this.db);
    return rows.map(view);
  }

  /** `currentPassword`: the caller's own, asked again when where or how mail leaves changes (SMTP_REAUTH). */
  async update(caller: Caller, changes: SettingsUpdate, currentPassword?: string): Promise<Setting[]> {
    // SMTP decides where password restore links go: a location admin must not point it elsewhere.
    assertDefaultAdmin(caller);
    const rows = new Map((await shownSettings(this.db)).map((r) => [r.code, r]));
    const fields: FieldError[] = [];
    const updates: { code: string; set: Partial<Row> }[] = [];
    for (const c of changes) {
      const row = rows.get(c.code);
      if (!row) {
        fields.push({ field: c.code.slice(0, 64), key: 'settings.unknown' });
        continue;
      }
      const column = FIELD[row.valueType as keyof typeof FIELD];
      const given = c[column];
      // A write-only value not sent again stays as it is.
      if (row.isWriteOnly && given == null) continue;
      const value: Value = given === undefined ? null : (given as Value);
      if (row.valueType === 'F' && typeof value !== 'boolean') {
        fields.push({ field: c.code, key: 'settings.badFlag' });
        continue;
      }
      const problem = SETTING_RULES[c.code as SettingCode]?.(typeof value === 'string' ? value.trim() : value) ?? null;
      if (problem) {
        fields.push({ field: c.code, key: problem });
        continue;
      }
      const text = typeof value === 'string' ? value.trim() : null;
      const stored = column === 'dateValue' ? (value ? new Date(value as string) : null) : text !== null ? (row.isWriteOnly ? this.secrets.sealOrNull(text) : text) : value;
      updates.push({ code: c.code, set: { [column]: stored } as Partial<Row> });
    }
    const changed = (code: string) => {
      const u = updates.find((x) => x.code === code);
      const row = rows.get(code)!;
      return !!u && Object.entries(u.set).some(([column, v]) => v !== row[column as keyof Row]);
    };
    const reauth = SMTP_REAUTH.some(changed);
    if (reauth && !currentPassword) fields.push({ field: 'currentPassword', key: 'settings.currentPasswordRequired' });
    if (fields.length) throw new AppError('VALIDATION', { fields });
    const password = rows.get('SMTP_PASSWORD');
    requireSecretsOnMove(SMTP_DESTINATION.some(changed), [
      { field: 'SMTP_PASSWORD', key: 'settings.passwordAgain', kept: !!password?.stringValue && !updates.some((u) => u.code === 'SMTP_PASSWORD') },
    ]);
    if (reauth && !(await confirmPassword(this.db, caller.userId, currentPassword!))) {
      throw new AppError('VALIDATION', { fields: [{ field: 'currentPassword', key: 'settings.currentPasswordWrong' }] });
    }
    if (updates.length) {
      await this.db.transaction(async (tx) => {
        for (const u of updates) await updateSetting(tx, u.code, u.set);
        await this.log.byCaller(
          caller,
          { group: 'SETTINGS', level: 'I', messageCode: 'settings.changed', params: { codes: updates.map((u) => u.code) } },
          tx,
        );
      });
    }
    return this.list(caller);
  }

  /**
   * Sends a test message with the saved SMTP settings, so the administrator sees at once whether
   * they work; the outcome goes to the event log either way. In the caller's language.
   */
  async sendTestEmail(caller: Caller, { to }: TestEmail, lang: Lang = 'en'): Promise<void> {
    assertDefaultAdmin(caller);
    const smtp = await this.smtp();
    await countTestMail(this.db, caller.userId, 1);
    try {
      await sendMail(smtp, {
        to,
        subject: translate(lang, 'settings.testEmailSubject'),
        text: translate(lang, 'settings.testEmailText', { actor: caller.login }),
      });
    } catch (err) {
      const reason = err instanceof AppError ? String(err.params.reason ?? err.code) : String(err);
      await this.log.byCaller(caller, { group: 'SETTINGS', level: 'E', messageCode: 'settings.testEmailFailed', params: { to, reason } });
      throw err;
    }
    await this.log.byCaller(caller, { group: 'SETTINGS', level: 'I', messageCode: 'settings.testEmailSent', params: { to } });
  }
}
