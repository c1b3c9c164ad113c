import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { BuiltApp } from '../app.ts';
import { createAgent } from '../modules/ingest/ingest.fixtures.ts';
import { ADMIN_PASSWORD, bearer } from './test-app.ts';

/** One value of each kind of stored secret, easy to find in a dump or a log. */
export const SECRETS = {
  smtpPassword: 'Smtp-Clear-Pass-71',
  queuePassword: 'Queue-Clear-Pass-72',
  community: 'Community-Clear-73',
  authKey: 'AuthKey-Clear-74',
  privKey: 'PrivKey-Clear-75',
  channelKey: 'Channel-Clear-Key-76',
  bindPassword: 'Bind-Clear-Pass-77',
};
export const SMTP_USER = 'mailer';

/**
 * Stores every kind of secret through the console API as an administrator would: SMTP (at the
 * given port, with a user and password), an agent with a v2c range, a v3 range and an IPP queue.
 */
export async function storeSecrets(app: BuiltApp['app'], token: string, smtpPort: number) {
  const call = async (method: 'POST' | 'PUT', url: string, payload: unknown) => {
    const res = await app.inject({ method, url, headers: bearer(token), payload: payload as object });
    if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  // `token` is the built-in administrator's: moving SMTP needs its password again (issue 52).
  await call('PUT', '/api/settings', { currentPassword: ADMIN_PASSWORD, changes: [
    { code: 'SMTP_HOST', stringValue: '127.0.0.1' }, { code: 'SMTP_PORT', numericValue: smtpPort }, { code: 'SMTP_SSL', flagValue: false },
    { code: 'SMTP_START-TLS', stringValue: 'DISABLED' }, { code: 'SMTP_FROM', stringValue: 'pagewatch@example.com' },
    { code: 'SMTP_USERNAME', stringValue: SMTP_USER }, { code: 'SMTP_PASSWORD', stringValue: SECRETS.smtpPassword },
  ] });
  const agent = await createAgent(app, token, { name: 'Secrets agent' });
  const v2 = await call('POST', '/api/network-ranges', {
    type: 'RANGE', from: '127.0.0.10', to: '127.0.0.20', port: 161, snmpVersion: '2c', community: SECRETS.community, agent: { id: agent.agentId },
  });
  const v3 = await call('POST', '/api/network-ranges', {
    type: 'RANGE', from: '127.0.0.30', to: '127.0.0.40', port: 161, snmpVersion: '3', v3User: 'reader', v3Level: 'authPriv',
    v3AuthProtocol: 'sha', authKey: SECRETS.authKey, v3PrivProtocol: 'aes', privKey: SECRETS.privKey, agent: { id: agent.agentId },
  });
  const queue = await call('POST', '/api/queues', {
    type: 'IPP', agent: { id: agent.agentId }, host: '127.0.0.50', port: 631, url: '/printers/office', username: 'reader', password: SECRETS.queuePassword,
  });
  const channel = await call('POST', '/api/settings/notification-channels', {
    kind: 'WEBHOOK', name: 'Secrets hook', target: 'http://127.0.0.1:9/hook', secret: SECRETS.channelKey, enabled: true, allowInternal: true,
  });
  const me = await app.inject({ url: '/api/users/me', headers: bearer(token) });
  const provider = await call('POST', '/api/identity-providers', {
    kind: 'LDAP', name: 'Secrets directory', locationId: me.json().locations[0].id, enabled: true, allowInternal: true, secret: SECRETS.bindPassword, mappings: [],
    ldap: { url: 'ldap://127.0.0.1:9', bindDn: 'cn=reader,dc=example', userBase: 'ou=people,dc=example', groupBase: 'ou=groups,dc=example' },
  });
  return { agentId: agent.agentId, agentToken: agent.token, v2RangeId: v2.id as number, v3RangeId: v3.id as number, queueId: queue.id as number, channelId: channel.id as number, providerId: provider.id as number };
}

/** Every row of every table as text, as a dump holds them. */
export async function dumpText(db: Db): Promise<string> {
  const tables = await db.execute(sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`);
  const parts: string[] = [];
  for (const { table_name: name } of tables.rows as { table_name: string }[]) {
    const rows = await db.execute(sql.raw(`SELECT t::text AS row FROM "${name}" t`));
    parts.push(name, ...(rows.rows as { row: string }[]).map((r) => r.row));
  }
  return parts.join('\n');
}

/** Each secret column read straight with SQL, as its stored text. */
export async function secretColumns(db: Db): Promise<Record<string, string[]>> {
  const read = async (q: ReturnType<typeof sql>) => ((await db.execute(q)).rows as { v: string | null }[]).map((r) => r.v).filter((v): v is string => !!v);
  return {
    'settings.SMTP_PASSWORD': await read(sql`SELECT string_value AS v FROM settings WHERE code = 'SMTP_PASSWORD'`),
    'queues.password': await read(sql`SELECT password AS v FROM queues`),
    'queues.token': await read(sql`SELECT token AS v FROM queues`),
    'network_ranges.community': await read(sql`SELECT community AS v FROM network_ranges`),
    'network_ranges.v3_auth_key': await read(sql`SELECT v3_auth_key AS v FROM network_ranges`),
    'network_ranges.v3_priv_key': await read(sql`SELECT v3_priv_key AS v FROM network_ranges`),
    'notification_channels.secret': await read(sql`SELECT secret AS v FROM notification_channels`),
    'identity_providers.secret': await read(sql`SELECT secret AS v FROM identity_providers`),
  };
}
