import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from '../../app.ts';
import { SecretBox, parseSecretKey } from '../../lib/secret-box.ts';
import { StartRefusal } from '../../lib/start-refusal.ts';
import { rotateSecretKey } from '../../secret-key-rotation.ts';
import { mailbox, type Mailbox } from '../../test/mailbox.ts';
import { dumpText, SECRETS, secretColumns, SMTP_USER, storeSecrets } from '../../test/secrets-fixture.ts';
import { bearer, createTestApp, signIn } from '../../test/test-app.ts';

/**
 * Secrets at rest (issue 43): a dump of the database holds none of them in clear, on either
 * database; they are opened only for the agent's config and the mailer; plain values of an older
 * version are sealed at the first start; a wrong key stops the start; a rotation re-encrypts.
 */
const KEY = randomBytes(32);
let t: Awaited<ReturnType<typeof createTestApp>>;
let box: Mailbox;
let admin: string;
let stored: Awaited<ReturnType<typeof storeSecrets>>;
const dir = mkdtempSync(join(tmpdir(), 'pw-secrets-'));
const others: BuiltApp[] = [];

beforeAll(async () => {
  box = await mailbox({ auth: { user: SMTP_USER, pass: SECRETS.smtpPassword } });
  t = await createTestApp({ secretKey: KEY });
  admin = await signIn(t.app);
  stored = await storeSecrets(t.app, admin, box.port);
});
afterAll(async () => {
  for (const o of others) await o.app.close();
  await t.close();
  await box.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A server started again on the same database (a restart, an upgrade) with this key. */
async function restart(over: { secretKey?: Buffer | null; secretKeyFile?: string } = {}) {
  const built = await buildApp({ ...t.ctx.config, ...over }, t.database, { logger: false });
  others.push(built);
  return built;
}

async function agentConfig(app: BuiltApp['app']) {
  const res = await app.inject({ url: '/api/agent/config', headers: bearer(stored.agentToken) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { ranges: { id: number; snmp: Record<string, unknown> }[]; queues: { id: number; password: string | null; token: string | null }[] };
}

/** The agent gets every secret of its ranges and queue in clear. */
async function expectAgentGetsSecrets(app: BuiltApp['app'], token: string | null = null) {
  const cfg = await agentConfig(app);
  expect(cfg.ranges.find((r) => r.id === stored.v2RangeId)!.snmp).toMatchObject({ version: '2c', community: SECRETS.community });
  expect(cfg.ranges.find((r) => r.id === stored.v3RangeId)!.snmp).toMatchObject({ version: '3', authKey: SECRETS.authKey, privKey: SECRETS.privKey });
  expect(cfg.queues.find((q) => q.id === stored.queueId)).toMatchObject({ password: SECRETS.queuePassword, token });
}

/** A test e-mail reaches the mailbox, which takes it only after a sign-in with the stored password. */
async function expectMailSent(app: BuiltApp['app']) {
  const before = box.received.length;
  const token = await signIn(app);
  const res = await app.inject({ method: 'POST', url: '/api/settings/test-email', headers: bearer(token), payload: { to: 'ops@example.com' } });
  expect(res.statusCode, res.body).toBe(200);
  expect(box.received.length).toBe(before + 1);
  expect(box.logins.at(-1)).toBe(SMTP_USER);
}

async function expectAllSealed(keyId: string) {
  const columns = await secretColumns(t.ctx.db);
  for (const [column, values] of Object.entries(columns)) for (const v of values) expect(v, column).toMatch(new RegExp(`^enc:v1:${keyId}:`));
  const dump = await dumpText(t.ctx.db);
  for (const secret of Object.values(SECRETS)) expect(dump).not.toContain(secret);
  return columns;
}

/** Puts the given secrets back in clear, as a version before issue 43 stored them. */
async function storePlain(queueToken: string | null = null) {
  await t.ctx.db.execute(sql`UPDATE settings SET string_value = ${SECRETS.smtpPassword} WHERE code = 'SMTP_PASSWORD'`);
  await t.ctx.db.execute(sql`UPDATE queues SET password = ${SECRETS.queuePassword}, token = ${queueToken} WHERE id = ${stored.queueId}`);
  await t.ctx.db.execute(sql`UPDATE network_ranges SET community = ${SECRETS.community} WHERE id = ${stored.v2RangeId}`);
  await t.ctx.db.execute(sql`UPDATE network_ranges SET v3_auth_key = ${SECRETS.authKey}, v3_priv_key = ${SECRETS.privKey} WHERE id = ${stored.v3RangeId}`);
  await t.ctx.db.execute(sql`UPDATE notification_channels SET secret = ${SECRETS.channelKey} WHERE id = ${stored.channelId}`);
  await t.ctx.db.execute(sql`UPDATE identity_providers SET secret = ${SECRETS.bindPassword} WHERE id = ${stored.providerId}`);
}

describe('secrets at rest', () => {
  it('keeps every secret out of a dump and out of the answers, and still gives them to the agent and the mailer', async () => {
    const columns = await expectAllSealed(t.ctx.secrets.keyId);
    expect(columns['settings.SMTP_PASSWORD']).toHaveLength(1);
    expect(columns['queues.password']).toHaveLength(1);
    expect(columns['network_ranges.community']).toHaveLength(1);
    expect(columns['network_ranges.v3_auth_key']).toHaveLength(1);
    expect(columns['network_ranges.v3_priv_key']).toHaveLength(1);
    expect(columns['notification_channels.secret']).toHaveLength(1);
    expect(columns['identity_providers.secret']).toHaveLength(1);
    const answers = await Promise.all(
      ['/api/settings', `/api/queues/${stored.queueId}`, `/api/network-ranges/${stored.v2RangeId}`, `/api/network-ranges/${stored.v3RangeId}`, '/api/queues', '/api/network-ranges', '/api/settings/notification-channels', '/api/identity-providers']
        .map(async (url) => (await t.app.inject({ url, headers: bearer(admin) })).body),
    );
    for (const body of answers) for (const v of [...Object.values(SECRETS), 'enc:v1:']) expect(body).not.toContain(v);
    await expectAgentGetsSecrets(t.app);
    await expectMailSent(t.app);
  });

  it('seals the plain values of an older version at the first start, once, and everything still works', async () => {
    await storePlain('Queue-Token-Clear-76');
    const restarted = await restart();
    const columns = await expectAllSealed(t.ctx.secrets.keyId);
    expect(columns['queues.token']).toHaveLength(1);
    expect(await dumpText(t.ctx.db)).not.toContain('Queue-Token-Clear-76');
    await expectAgentGetsSecrets(restarted.app, 'Queue-Token-Clear-76');
    await expectMailSent(restarted.app);
    // A second start finds nothing to seal: every value stays as it is.
    await restart();
    expect(await secretColumns(t.ctx.db)).toEqual(columns);
    await t.ctx.db.execute(sql`UPDATE queues SET token = NULL`);
  });

  it('refuses to start with another key, naming the problem, and changes nothing', async () => {
    await t.ctx.db.execute(sql`UPDATE queues SET token = 'Plain-Token-77'`);
    const before = await secretColumns(t.ctx.db);
    const other = randomBytes(32);
    const refused = await restart({ secretKey: other }).then(() => null, (err: unknown) => err);
    expect(refused).toBeInstanceOf(StartRefusal);
    expect((refused as Error).message).toContain(`The secret key (key id ${new SecretBox(other).keyId})`);
    expect((refused as Error).message).toMatch(/is not the key this database's secrets were encrypted with \(key id [\w-]{8}\)/);
    expect((refused as Error).message).toContain(t.ctx.secrets.keyId);
    // The plain token was not sealed with the wrong key.
    expect(await secretColumns(t.ctx.db)).toEqual(before);

    // An altered value is refused too, with its column and row.
    const [pw] = before['queues.password'];
    const altered = `${pw.slice(0, -2)}${pw.endsWith('AA') ? 'BB' : 'AA'}`;
    await t.ctx.db.execute(sql`UPDATE queues SET password = ${altered}`);
    await expect(restart()).rejects.toThrow(`The stored secret queues.password of row ${stored.queueId} does not decrypt`);
    await t.ctx.db.execute(sql`UPDATE queues SET password = ${pw}, token = NULL`);
  });

  it('refuses to start without its key file on a database that holds encrypted secrets, naming the key they need, and writes no key file', async () => {
    // A restored folder or database whose key was not put back: a new key would open none of its secrets.
    const before = await secretColumns(t.ctx.db);
    const file = join(dir, 'restored', 'secret.key');
    const refused = await restart({ secretKey: null, secretKeyFile: file }).then(() => null, (err: unknown) => err);
    expect(refused).toBeInstanceOf(StartRefusal);
    expect((refused as Error).message).toBe(
      `The secret key file ${file} does not exist, and this database's secrets are encrypted with key id ${t.ctx.secrets.keyId}: ` +
        'put that key back (the key file, or PAGEWATCH_SECRET_KEY; see the README, "Secrets at rest"); a new key would open none of them',
    );
    expect(existsSync(file)).toBe(false);
    expect(await secretColumns(t.ctx.db)).toEqual(before);
  });

  it('rotates the key: every secret is re-encrypted, the key file holds the new key, and the old key no longer opens them', async () => {
    const file = join(dir, 'secret.key');
    writeFileSync(file, `${KEY.toString('hex')}\n`, { mode: 0o600 });
    const config = { ...t.ctx.config, secretKey: null, secretKeyFile: file };
    const r = await rotateSecretKey(config, t.database, undefined);
    expect(r).toMatchObject({ rotated: 7, oldKeyId: t.ctx.secrets.keyId, file });
    const newKey = parseSecretKey(readFileSync(file, 'utf8'))!;
    expect(new SecretBox(newKey).keyId).toBe(r.newKeyId);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const columns = await expectAllSealed(r.newKeyId);
    for (const v of Object.values(columns).flat()) expect(() => t.ctx.secrets.open(v)).toThrow();
    await expect(restart({ secretKey: KEY })).rejects.toThrow(/is not the key this database's secrets were encrypted with/);
    const rotated = await restart({ secretKey: null, secretKeyFile: file });
    await expectAgentGetsSecrets(rotated.app);
    await expectMailSent(rotated.app);

    // With the key in the environment, the operator gives the new key; a wrong current key changes nothing.
    await expect(rotateSecretKey({ ...config, secretKey: newKey }, t.database, undefined)).rejects.toThrow(/PAGEWATCH_NEW_SECRET_KEY/);
    await expect(rotateSecretKey({ ...config, secretKey: KEY }, t.database, randomBytes(32).toString('base64'))).rejects.toThrow(/current secret key/);
    expect(await secretColumns(t.ctx.db)).toEqual(columns);
  });
});
