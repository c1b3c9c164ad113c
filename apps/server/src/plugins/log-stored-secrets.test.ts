import { createServer, type AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, capturedLog, signIn, testApp } from '../test/test-app.ts';
import { SECRETS, storeSecrets } from '../test/secrets-fixture.ts';

/**
 * Stored secrets never reach a log (issue 43, security.md item 7): a run that sets the SMTP
 * password, a queue password, a range community and v3 keys through the API, then makes
 * requests that succeed and fail around them (the agent's config, refused changes, a failed
 * statement, a test e-mail to no server), logs none of them, at the most talkative level.
 */
const serverLog = capturedLog();
const t = testApp({ logLevel: 'trace', logStream: serverLog.stream, signIn: false });
beforeAll(async () => {
  // A database that refuses one queue the way PostgreSQL reports a failing row: its values in DETAIL.
  await t.ctx.db.execute(sql.raw(`
    CREATE FUNCTION refuse_queue() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.host LIKE 'boom%' THEN
        RAISE EXCEPTION 'check failed' USING DETAIL = 'Failing row contains (' || NEW.host || ', ' || coalesce(NEW.password, '') || ').';
      END IF;
      RETURN NEW;
    END $$`));
  await t.ctx.db.execute(sql.raw(`CREATE TRIGGER refuse_queue BEFORE INSERT OR UPDATE ON queues FOR EACH ROW EXECUTE FUNCTION refuse_queue();`));
});

/** A port nothing listens on: the SMTP connection is refused, and that failure is logged. */
async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

describe('stored secrets in the logs', () => {
  it('logs none of the secrets a run set, whatever succeeded or failed around them', async () => {
    const admin = await signIn(t.app);
    const stored = await storeSecrets(t.app, admin, await closedPort());
    const as = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, token = admin) => t.app.inject({ method, url, headers: bearer(token), payload });

    // The agent gets them in clear; its answer is not logged.
    const cfg = await as('GET', '/api/agent/config', undefined, stored.agentToken);
    expect(cfg.body).toContain(SECRETS.community);
    expect((await as('GET', '/api/agent/config', undefined, 'not-an-agent-token')).statusCode).toBe(401);
    // Refused: a bad range with a community, a range moved without its keys, a queue moved without its password, an unknown range.
    expect((await as('POST', '/api/network-ranges', { type: 'RANGE', from: '10.0.0.300', to: '10.0.0.1', port: 161, snmpVersion: '2c', community: SECRETS.community, agent: { id: stored.agentId } })).statusCode).toBe(400);
    const v3 = (await as('GET', `/api/network-ranges/${stored.v3RangeId}`)).json();
    expect((await as('PUT', `/api/network-ranges/${stored.v3RangeId}`, { ...v3, from: '127.0.0.31', authKey: null, privKey: null })).statusCode).toBe(422);
    expect((await as('PUT', '/api/network-ranges/999999', { type: 'RANGE', from: '127.0.0.1', to: '127.0.0.2', port: 161, snmpVersion: '2c', community: SECRETS.community })).statusCode).toBe(404);
    const queue = { type: 'IPP', agent: { id: stored.agentId }, host: '127.0.0.51', port: 631, url: '/printers/office', username: 'reader' };
    expect((await as('PUT', `/api/queues/${stored.queueId}`, { ...queue, password: null })).statusCode).toBe(422);
    // A failed statement that carries the (sealed) password, and a test e-mail that cannot be sent.
    expect((await as('POST', '/api/queues', { ...queue, host: 'boom.example', password: SECRETS.queuePassword })).statusCode).toBe(500);
    expect((await as('POST', '/api/settings/test-email', { to: 'ops@example.com' })).statusCode).toBeGreaterThanOrEqual(400);
    await new Promise((r) => setTimeout(r, 200)); // the event log's error record is written after the reply

    const log = serverLog.lines.join('');
    expect(log).toContain('request failed');
    const events = JSON.stringify((await t.ctx.db.execute(sql`SELECT message, message_params::text AS params, stack_trace FROM event_logs`)).rows);
    for (const text of [log, events]) {
      for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
      expect(text).not.toContain('enc:v1:');
    }
  });
});
