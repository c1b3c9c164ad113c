import { describe, expect, it } from 'vitest';
import { signIn, testApp } from '../test/test-app.ts';
import { openSocket } from '../test/websocket.ts';
import { buildApp } from '../app.ts';
import { openDatabase } from '../db/client.ts';
import type { WsMessage } from '@pagewatch/contracts/ws';

const t = testApp({ signIn: false, webSocket: true });

describe('WebSocket', () => {
  it('refuses a connection without a valid token', async () => {
    await expect(openSocket(t.wsUrl)).rejects.toThrow();
    await expect(openSocket(`${t.wsUrl}?access_token=nope`)).rejects.toThrow();
  });

  it('delivers log and dictionary events to subscribers only', async () => {
    const token = await signIn(t.app);
    const c = await openSocket(`${t.wsUrl}?access_token=${token}`);
    c.ws.send(JSON.stringify({ command: 'subscribe-log-events', id: 42 }));
    expect(await c.next()).toEqual({ type: 'response', command: 'subscribe-log-events', ok: true });
    t.ctx.hub.publish('log:41', { type: 'EVENT_LOG_CHANGED', id: 41 });
    t.ctx.hub.publish('log:42', { type: 'EVENT_LOG_CHANGED', id: 42 });
    expect(await c.next()).toEqual({ type: 'EVENT_LOG_CHANGED', id: 42 });

    c.ws.send(JSON.stringify({ command: 'subscribe-dic-events' }));
    await c.next();
    // A dictionary of a location outside the caller's scope is not named to it (issue 39).
    t.ctx.hub.publish('dic', { type: 'DICTIONARY_CHANGED', dictionary: 'THEIRS', locationId: 987654 });
    t.ctx.hub.publish('dic', { type: 'DICTIONARY_CHANGED', dictionary: 'LOCATION' });
    expect(await c.next()).toEqual({ type: 'DICTIONARY_CHANGED', dictionary: 'LOCATION' });

    c.ws.send(JSON.stringify({ command: 'subscribe-device-events' }));
    expect(await c.next()).toEqual({ type: 'response', command: 'subscribe-device-events', ok: true });
    const admin = (await t.app.inject({ url: '/api/users/me', headers: { authorization: `Bearer ${token}` } })).json();
    const home = admin.locations[0].id as number;
    t.ctx.hub.publish('devices', { type: 'DEVICE_EVENT', deviceId: 7, locationId: 987654, event: 'STATUS_CHANGE' });
    t.ctx.hub.publish('devices', { type: 'DEVICE_EVENT', deviceId: 8, locationId: home, event: 'IP_CHANGE' });
    // The event of a location outside the caller's scope never arrives; the next one does.
    expect(await c.next()).toEqual({ type: 'DEVICE_EVENT', deviceId: 8, locationId: home, event: 'IP_CHANGE' });

    c.ws.send('not json');
    expect(await c.next()).toMatchObject({ type: 'response', ok: false });
    c.ws.close(1000);
    await new Promise((r) => setTimeout(r, 100));
    expect(t.ctx.hub.listenerCount('log:42')).toBe(0);
  });
});

describe('request log', () => {
  it('never writes the WebSocket token', async () => {
    const { redactedRequest } = await import('./logging.ts');
    const line = redactedRequest({ method: 'GET', url: '/ws?x=1&access_token=secret-token&y=2', ip: '127.0.0.1' });
    expect(line.url).toBe('/ws?x=1&access_token=[redacted]&y=2');
    expect(JSON.stringify(line)).not.toContain('secret-token');
  });
});

describe.skipIf(process.env.PAGEWATCH_TEST_DB !== 'postgres')('across server instances (PostgreSQL only: PGlite serves one process)', () => {
  it('delivers a message published on one instance to listeners on another, once', async () => {
    const other = await openDatabase({ url: t.database.url, dataDir: '' });
    const second = await buildApp(t.ctx.config, other, { logger: false });
    try {
      const here: WsMessage[] = [];
      const there: WsMessage[] = [];
      const offHere = t.ctx.hub.subscribe('dic', (m) => here.push(m));
      const offThere = second.ctx.hub.subscribe('dic', (m) => there.push(m));
      t.ctx.hub.publish('dic', { type: 'DICTIONARY_CHANGED', dictionary: 'LOCATION' });
      await expect.poll(() => there.length).toBe(1);
      expect(there[0]).toEqual({ type: 'DICTIONARY_CHANGED', dictionary: 'LOCATION' });
      await new Promise((r) => setTimeout(r, 200));
      expect(here).toHaveLength(1); // not delivered a second time through the database
      offHere();
      offThere();
    } finally {
      await second.app.close();
      await other.close();
    }
  });
});
