import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { DEFAULT_ROLES, type RoleCode } from '@pagewatch/contracts/grants';
import { HISTORY_RETENTION_DEFAULTS, OFFLINE_MISSED_POLLS_DEFAULT } from '@pagewatch/contracts/settings';
import type { Db } from './db/client.ts';
import { eventGroups } from './db/schema/event-logs.ts';
import { locations } from './db/schema/locations.ts';
import { roleGrants, roles } from './db/schema/roles.ts';
import { settings } from './db/schema/settings.ts';
import { userLocations, userRoles, users } from './db/schema/users.ts';
import { EVENT_GROUPS } from './modules/event-logs/event-logs.service.ts';
import { hashPassword } from './lib/password.ts';
import { seedDictionaries } from './modules/dictionaries/dictionaries.seed.ts';
import { translate, type Lang } from './i18n/messages.ts';
import './seed.messages.ts';

type SettingSeed = typeof settings.$inferInsert;
const SETTINGS: SettingSeed[] = [
  { code: 'SMTP_HOST', name: 'SMTP host', valueType: 'S', systemComponent: 'SMTP' },
  { code: 'SMTP_PORT', name: 'SMTP port', valueType: 'N', numericValue: 25, systemComponent: 'SMTP' },
  { code: 'SMTP_USERNAME', name: 'SMTP user name', valueType: 'S', systemComponent: 'SMTP' },
  { code: 'SMTP_PASSWORD', name: 'SMTP password', valueType: 'S', systemComponent: 'SMTP', isWriteOnly: true },
  { code: 'SMTP_SSL', name: 'SMTP SSL', valueType: 'F', flagValue: false, systemComponent: 'SMTP' },
  { code: 'SMTP_TRUST-ALL', name: 'Trust all certificates', valueType: 'F', flagValue: false, systemComponent: 'SMTP' },
  { code: 'SMTP_START-TLS', name: 'STARTTLS', valueType: 'S', stringValue: 'OPTIONAL', systemComponent: 'SMTP' },
  { code: 'SMTP_FROM', name: 'From address', valueType: 'S', systemComponent: 'SMTP' },
  { code: 'PROCESSES_PERIODICITY', name: 'Agent process periodicity, minutes', valueType: 'N', numericValue: 15, systemComponent: 'AGENT' },
  { code: 'AGENT_UPDATES_PAUSED', name: 'Agent updates paused', valueType: 'F', flagValue: false, systemComponent: 'AGENT' },
  { code: 'LOG_STORAGE_DAYS', name: 'Log storage days', valueType: 'N', numericValue: 90, systemComponent: 'LOG' },
  { code: 'CLEARING_ENABLED', name: 'Log clearing enabled', valueType: 'F', flagValue: true, systemComponent: 'LOG' },
  { code: 'HISTORY_DAYS_MONTHS', name: 'Daily history (devices, supplies, users) kept, months', valueType: 'N', numericValue: HISTORY_RETENTION_DEFAULTS.HISTORY_DAYS_MONTHS, systemComponent: 'HISTORY' },
  { code: 'HISTORY_EVENTS_MONTHS', name: 'Device events and IP changes kept, months', valueType: 'N', numericValue: HISTORY_RETENTION_DEFAULTS.HISTORY_EVENTS_MONTHS, systemComponent: 'HISTORY' },
  { code: 'HISTORY_RUNS_MONTHS', name: 'Agent runs and print jobs kept, months', valueType: 'N', numericValue: HISTORY_RETENTION_DEFAULTS.HISTORY_RUNS_MONTHS, systemComponent: 'HISTORY' },
  { code: 'ALERT_REPEAT_HOURS', name: 'Open alerts not acknowledged are mailed again after, hours (0: never)', valueType: 'N', numericValue: 0, systemComponent: 'ALERTS' },
  { code: 'OFFLINE_MISSED_POLLS', name: 'A device is not available (an alert) after this many missed polls', valueType: 'N', numericValue: OFFLINE_MISSED_POLLS_DEFAULT, systemComponent: 'ALERTS' },
];

/**
 * Creates what a new installation needs, once: roles and their grants, the DEFAULT location,
 * settings, event groups and the `admin` user, named in `lang`. Returns the admin password when
 * it was generated here (the caller prints it once).
 */
export async function seed(db: Db, adminPassword: string | null, lang: Lang = 'en'): Promise<{ generatedPassword: string | null }> {
  return db.transaction(async (tx) => {
    for (const [code, role] of Object.entries(DEFAULT_ROLES) as [RoleCode, (typeof DEFAULT_ROLES)[RoleCode]][]) {
      const [r] = await tx.insert(roles).values({ code, name: role.name }).onConflictDoNothing().returning();
      if (r) {
        await tx.insert(roleGrants).values(role.grants.map((g) => {
          const [component, operation] = g.split('.');
          return { roleId: r.id, component, operation };
        }));
      }
    }
    await tx.insert(locations).values({ code: 'DEFAULT', name: translate(lang, 'seed.defaultLocation') }).onConflictDoNothing();
    await tx.insert(settings).values(SETTINGS).onConflictDoNothing();
    await tx.insert(eventGroups).values(EVENT_GROUPS.map((code) => ({ code, name: code }))).onConflictDoNothing();
    await seedDictionaries(tx);

    const [existing] = await tx.select({ id: users.id }).from(users).where(sql`lower(${users.login}) = 'admin'`);
    if (existing) return { generatedPassword: null };
    const generated = adminPassword ? null : randomBytes(12).toString('base64url');
    const [admin] = await tx
      .insert(users)
      .values({ login: 'admin', email: 'admin@pagewatch.local', passwordHash: await hashPassword(adminPassword ?? generated!), lastName: translate(lang, 'seed.adminName'), isSystem: true, systemNotificationRecipient: true })
      .returning();
    const [adminRole] = await tx.select().from(roles).where(eq(roles.code, 'ADMIN'));
    const [defaultLocation] = await tx.select().from(locations).where(eq(locations.code, 'DEFAULT'));
    await tx.insert(userRoles).values({ userId: admin.id, roleId: adminRole.id });
    await tx.insert(userLocations).values({ userId: admin.id, locationId: defaultLocation.id });
    return { generatedPassword: generated };
  });
}
