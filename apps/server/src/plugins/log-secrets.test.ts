import { createServer, type AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, bearer, capturedLog, createUser, testApp } from '../test/test-app.ts';

/**
 * Secrets never reach the server log or the event log (security.md, item 7): not a password,
 * not its hash, not a restore token, not even when a statement that carries them fails.
 */
const server = capturedLog();
const t = testApp({ logStream: server.stream });
beforeAll(async () => {
  // A database that refuses one login, the way PostgreSQL reports a failing row: its values in DETAIL.
  await t.ctx.db.execute(sql.raw(`
    CREATE FUNCTION refuse_boom() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.login LIKE 'boom%' THEN
        RAISE EXCEPTION 'check failed' USING DETAIL = 'Failing row contains (' || NEW.login || ', ' || NEW.password_hash || ').';
      END IF;
      RETURN NEW;
    END $$`));
  await t.ctx.db.execute(sql.raw(`CREATE TRIGGER refuse_boom BEFORE INSERT OR UPDATE ON users FOR EACH ROW EXECUTE FUNCTION refuse_boom();`));
});

const PASSWORD = 'Sekret-Pass-42!';
const user = (login: string, locationId: number, roleId: number) => ({
  login, email: `${login}@example.com`, passwordHash: PASSWORD, lastName: login, activeFlag: true,
  locations: [{ id: locationId }], grants: [{ id: roleId }],
});

async function eventLogText() {
  const rows = await t.ctx.db.execute(sql`SELECT message, message_params::text AS params, stack_trace FROM event_logs`);
  return JSON.stringify(rows.rows);
}

describe('secrets in the logs', () => {
  it('keeps passwords and their hashes out of the server log and the event log, failed statements included', async () => {
    const roles = (await t.app.inject({ url: '/api/managed-roles-v/', headers: bearer(t.admin) })).json().pageRows as { id: number; code: string }[];
    const roleId = roles.find((r) => r.code === 'OPERATOR')!.id;
    const defaultId = Number((await t.ctx.db.execute(sql`SELECT id FROM locations WHERE code = 'DEFAULT'`)).rows[0].id);

    const id = await createUser(t.app, t.admin, { login: 'alice', password: PASSWORD, role: 'OPERATOR', locationIds: [defaultId] });
    const changed = await t.app.inject({ method: 'PUT', url: `/api/users/${id}`, headers: bearer(t.admin), payload: { ...user('alice', defaultId, roleId), passwordHash: `${PASSWORD}x` } });
    expect(changed.statusCode).toBe(200);
    const failed = await t.app.inject({ method: 'POST', url: '/api/users', headers: bearer(t.admin), payload: user('boom', defaultId, roleId) });
    expect(failed.statusCode).toBe(500);
    const failedUpdate = await t.app.inject({ method: 'PUT', url: `/api/users/${id}`, headers: bearer(t.admin), payload: user('boom2', defaultId, roleId) });
    expect(failedUpdate.statusCode).toBe(500);
    await new Promise((r) => setTimeout(r, 200)); // the event log's error record is written after the reply

    const log = server.lines.join('');
    expect(log).toContain('request failed');
    const events = await eventLogText();
    expect(events).toContain('check failed');
    for (const text of [log, events]) {
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toMatch(/\$argon2/);
      expect(text).not.toContain('Failing row');
    }
  });

  it('keeps a password restore token out of the request log', async () => {
    await t.app.inject({ method: 'POST', url: '/api/auth/restore-password/secret-restore-token-123', payload: { password: PASSWORD } });
    await t.app.inject({ url: '/api/auth/restore-password/secret-restore-token-456' });
    const log = server.lines.join('');
    expect(log).toContain('/api/auth/restore-password/');
    expect(log).not.toContain('secret-restore-token');
    expect(log).not.toContain(PASSWORD);
  });

  it('writes every line as JSON with the level by name, and never the admin or SMTP password of the run', async () => {
    const SMTP_PASSWORD = 'Smtp-Sekret-93!';
    // A mail server that is not there: the test mail fails, and its failure is logged.
    const closed = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const port = (s.address() as AddressInfo).port;
        s.close(() => resolve(port));
      });
    });
    const saved = await t.app.inject({
      method: 'PUT', url: '/api/settings', headers: bearer(t.admin),
      payload: { currentPassword: ADMIN_PASSWORD, changes: [
        { code: 'SMTP_HOST', stringValue: '127.0.0.1' }, { code: 'SMTP_PORT', numericValue: closed }, { code: 'SMTP_SSL', flagValue: false },
        { code: 'SMTP_FROM', stringValue: 'pagewatch@example.com' }, { code: 'SMTP_USERNAME', stringValue: 'mailer' }, { code: 'SMTP_PASSWORD', stringValue: SMTP_PASSWORD },
      ] },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const mail = await t.app.inject({ method: 'POST', url: '/api/settings/test-email', headers: bearer(t.admin), payload: { to: 'someone@example.com' } });
    expect(mail.statusCode).toBeGreaterThanOrEqual(400);
    // Two notification e-mails that fail: each failure is one line, with its reason.
    await t.ctx.db.execute(sql`
      INSERT INTO notification_messages (message_id, to_email, subject, html) VALUES
        ('<n1@log-secrets>', 'a@example.com', 's', 'h'), ('<n2@log-secrets>', 'b@example.com', 's', 'h')`);
    expect(await t.ctx.notifier.sender.sendDue()).toEqual({ sent: 0, failed: 2 });
    const notSent = server.entries('notification e-mail not sent');
    expect(notSent).toHaveLength(2);
    for (const line of notSent) expect(line).toMatchObject({ level: 'warn', attempt: 1, reason: expect.stringContaining('ECONNREFUSED') });

    expect(server.lines.length).toBeGreaterThan(0);
    for (const line of server.lines.join('').split('\n').filter(Boolean)) {
      const entry = JSON.parse(line);
      expect(['trace', 'debug', 'info', 'warn', 'error', 'fatal'], line).toContain(entry.level);
    }
    const log = server.lines.join('');
    expect(log).not.toContain(ADMIN_PASSWORD);
    expect(log).not.toContain(SMTP_PASSWORD);
  });
});
