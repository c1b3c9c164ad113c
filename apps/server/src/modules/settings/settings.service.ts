import { isIP } from 'node:net';
import { asc, eq, ne } from 'drizzle-orm';
import { z } from 'zod';
import { LOG_STORAGE_DAYS_MAX, PROCESS_PERIODICITIES, START_TLS_MODES, type Setting, type SettingsUpdate } from '@pagewatch/contracts/settings';
import type { Db } from '../../db/client.ts';
import { settings } from '../../db/tables.ts';
import { AppError, type FieldError } from '../../lib/app-error.ts';
import { assertDefaultAdmin, type Caller } from '../auth/caller.ts';
import type { EventLog } from '../event-logs/event-logs.service.ts';
import './settings.messages.ts';

type Row = typeof settings.$inferSelect;
type Value = string | number | boolean | null;

const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const email = z.email();

/** Spec section 5: the rule of each setting with one; a message key when the value breaks it. */
const RULES: Record<string, (v: Value) => string | null> = {
  SMTP_HOST: (v) => {
    const s = typeof v === 'string' ? v.trim() : '';
    if (!s) return 'general.mandatory';
    if (isIP(s)) return null;
    return HOST_NAME.test(s) && !/^[\d.]+$/.test(s) ? null : 'settings.badHost';
  },
  SMTP_PORT: (v) => (v === null ? 'general.mandatory' : Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 65535 ? null : 'settings.badPort'),
  SMTP_FROM: (v) => (typeof v === 'string' && v !== '' && !email.safeParse(v).success ? 'general.badEmail' : null),
  'SMTP_START-TLS': (v) => ((START_TLS_MODES as readonly unknown[]).includes(v) ? null : 'settings.badStartTls'),
  PROCESSES_PERIODICITY: (v) => (v === null ? 'general.mandatory' : (PROCESS_PERIODICITIES as readonly unknown[]).includes(v) ? null : 'settings.badPeriodicity'),
  LOG_STORAGE_DAYS: (v) => (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= LOG_STORAGE_DAYS_MAX ? null : 'settings.badStorageDays'),
};

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
export class SettingsService {
  private readonly db: Db;
  private readonly log: EventLog;
  constructor(db: Db, log: EventLog) {
    this.db = db;
    this.log = log;
  }

  async list(): Promise<Setting[]> {
    const rows = await this.db.select().from(settings).where(ne(settings.systemComponent, 'SYSTEM')).orderBy(asc(settings.systemComponent), asc(settings.code));
    return rows.map(view);
  }

  async update(caller: Caller, changes: SettingsUpdate): Promise<Setting[]> {
    // SMTP decides where password restore links go: a location admin must not point it elsewhere.
    assertDefaultAdmin(caller);
    const rows = new Map((await this.db.select().from(settings).where(ne(settings.systemComponent, 'SYSTEM'))).map((r) => [r.code, r]));
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
      const problem = RULES[c.code]?.(typeof value === 'string' ? value.trim() : value) ?? null;
      if (problem) {
        fields.push({ field: c.code, key: problem });
        continue;
      }
      const stored = column === 'dateValue' ? (value ? new Date(value as string) : null) : typeof value === 'string' ? value.trim() : value;
      updates.push({ code: c.code, set: { [column]: stored } as Partial<Row> });
    }
    if (fields.length) throw new AppError('VALIDATION', { fields });
    if (updates.length) {
      await this.db.transaction(async (tx) => {
        for (const u of updates) await tx.update(settings).set(u.set).where(eq(settings.code, u.code));
        await this.log.write(
          { group: 'SETTINGS', level: 'I', messageCode: 'settings.changed', params: { actor: caller.login, codes: updates.map((u) => u.code) }, userId: caller.userId },
          tx,
        );
      });
    }
    return this.list();
  }
}
