import { sql } from 'drizzle-orm';
import { signIn } from './test-app.ts';
import { unique, userPayload, logAt, locationAt, locationWithPlanAt, locationAttributeId, agentAt, rangePayload, rangeAt, queuePayload, queueAt, queueJobAt, deviceAt, notificationPayload, notificationAt, deviceIds, devicesSeed, alertAt, locationsSeed, type Fixture } from './authorization-world.ts';
import { REPORT_AND_LICENSE_ROUTES } from './authorization-routes-reports.ts';
import { DICTIONARY_ROUTES, DICTIONARY_VARIANTS } from './authorization-routes-dictionaries.ts';
import { API_TOKEN_ROUTES } from './authorization-routes-tokens.ts';
import { SUPPLY_ORDER_ROUTES } from './authorization-routes-supply-orders.ts';
import { BILLING_ROUTES } from './authorization-routes-billing.ts';
import { IDENTITY_PROVIDER_ROUTES } from './authorization-routes-identity.ts';

/**
 * The fixtures of the authorisation matrix (`plugins/authorization-matrix.test.ts`): for every
 * API route, how to call it on an object inside or outside the caller's locations.
 *
 * ADDING A ROUTE: every route needs an entry in ROUTES below (reports and licenses in
 * authorization-routes-reports.ts, dictionaries in authorization-routes-dictionaries.ts), keyed `'METHOD /api/path'` exactly
 * as Fastify registered it (`:id` params included). Pick the kind:
 *   - 'item'   an object that belongs to a location: `request(w, locationId)` makes a fresh object
 *              there (through the API as `w.root`, or with the helpers) and returns the call on
 *              it. Used for get / create / change / delete; a create puts the new object there.
 *   - 'list'   `seed(w)` makes objects inside and outside, returns their ids; `request` the call
 *              (ask for a page big enough); `rows(body)` the ids in the answer (default pageRows).
 *   - 'global' not tied to a location (version info, role lists): holders succeed.
 *   - 'instance' instance-wide, the default administrator's alone (settings): every caller here
 *              lives below DEFAULT, so holders too get 403; root (at DEFAULT) succeeds.
 *   - 'self'   about the caller (their profile, their session).
 *   - 'public' / 'agent' / 'skip' (with a reason: tested elsewhere).
 * A route declared `access: 'user'` whose service checks a grant itself says so with `needs`.
 * A route that serves objects of other kinds (a dictionary item: a location, or an item of a
 * customer's or a system dictionary) has a case for each in VARIANTS too.
 */

/** A webhook channel on loopback (allowed explicitly), made by root. */
const channelPayload = () => ({ kind: 'WEBHOOK', name: unique('channel'), target: 'http://127.0.0.1:9/hook', secret: 'matrix-signing-key-0001', enabled: true, allowInternal: true });
const channelOf = async (w: Parameters<Extract<Fixture, { kind: 'instance' }>['request']>[0]): Promise<number> =>
  (await w.asRoot('POST', '/api/settings/notification-channels', channelPayload())).id;

/** The same fixture for every alias of a list. */
const listOf = (urls: string[], f: Omit<Extract<Fixture, { kind: 'list' }>, 'request'>): Record<string, Fixture> =>
  Object.fromEntries(urls.map((url) => [`GET ${url}`, { ...f, request: () => ({ url: `${url}?page=1000,1` }) }]));

/** One entry per route: see "ADDING A ROUTE" above. */
export const ROUTES: Record<string, Fixture> = {
  // auth
  'POST /api/auth/': { kind: 'public' },
  'POST /api/auth/forgot-password': { kind: 'public' },
  'GET /api/auth/restore-password/:token': { kind: 'public' },
  'POST /api/auth/restore-password/:token': { kind: 'public' },
  'POST /api/auth/demo-request': { kind: 'public' },
  // health probes (plugins/health.ts)
  'GET /api/health': { kind: 'public' },
  'GET /api/ready': { kind: 'public' },
  'POST /api/auth/logout': {
    kind: 'self',
    ok: 204,
    // A session of its own: logging out the caller's would end the rest of the matrix.
    request: async (w, c) => ({ url: '/api/auth/logout', token: await signIn(w.app, c.login, c.password) }),
  },
  'GET /api/users/me': { kind: 'self', request: async () => ({ url: '/api/users/me' }) },
  ...API_TOKEN_ROUTES,

  // users
  'GET /api/users': {
    kind: 'list',
    seed: async (w) => ({ inside: [await w.userAt(w.loc.IN_CHILD), await w.userAt(w.loc.IN)], outside: [await w.userAt(w.loc.OUT), 1] }),
    request: () => ({ url: '/api/users?page=1000,1' }),
  },
  'GET /api/managed-users-v/': {
    kind: 'list',
    seed: async (w) => ({ inside: [await w.userAt(w.loc.IN_CHILD)], outside: [await w.userAt(w.loc.OUT), 1] }),
    request: () => ({ url: '/api/managed-users-v/?page=1000,1' }),
  },
  'GET /api/users/:id': { kind: 'item', request: async (w, at) => ({ url: `/api/users/${await w.userAt(at)}` }) },
  'POST /api/users': { kind: 'item', request: async (w, at) => ({ url: '/api/users', payload: userPayload(w, at) }) },
  'PUT /api/users/:id': {
    kind: 'item',
    request: async (w, at) => {
      const id = await w.userAt(at);
      const u = await w.asRoot('GET', `/api/users/${id}`);
      return { url: `/api/users/${id}`, payload: { ...userPayload(w, at, u.login), passwordHash: undefined, firstName: 'Changed' } };
    },
  },
  'DELETE /api/users/:id': { kind: 'item', ok: 204, request: async (w, at) => ({ url: `/api/users/${await w.userAt(at)}` }) },
  'GET /api/managed-roles-v/': { kind: 'global', request: () => ({ url: '/api/managed-roles-v/' }) },

  // locations
  'GET /api/user-locations/': { kind: 'list', seed: locationsSeed, request: () => ({ url: '/api/user-locations/' }) },
  'GET /api/user-locations/page': { kind: 'list', seed: locationsSeed, request: () => ({ url: '/api/user-locations/page?page=1000,1' }) },

  // locations as LOCATION dictionary items (dictionary 1), their plan, agents and devices
  'GET /api/dictionary-items/by-code/:code': { kind: 'list', seed: locationsSeed, request: () => ({ url: '/api/dictionary-items/by-code/LOCATION' }) },
  'GET /api/dictionary-items/:id': { kind: 'item', request: async (w, at) => ({ url: `/api/dictionary-items/${await locationAt(w, at)}` }) },
  'GET /api/dictionary-items/:id/attribute-values': {
    kind: 'item',
    request: async (w, at) => ({ url: `/api/dictionary-items/${await locationAt(w, at)}/attribute-values` }),
  },
  // Declared 'user': the service asks PAGE_LOCATION.EDIT for a location (MNU_DICTIONARIES.EDIT and
  // the dictionary's owner for other items: DICTIONARY_VARIANTS).
  'POST /api/dictionary-items': {
    kind: 'item',
    needs: 'PAGE_LOCATION.EDIT',
    request: async (_w, at) => ({ url: '/api/dictionary-items', payload: { dictionaryId: 1, code: unique('ML'), name: 'New place', parentId: at } }),
  },
  'PUT /api/dictionary-items/:id': {
    kind: 'item',
    needs: 'PAGE_LOCATION.EDIT',
    request: async (w, at) => ({ url: `/api/dictionary-items/${await locationAt(w, at)}`, payload: { name: 'Renamed place' } }),
  },
  'DELETE /api/dictionary-items/:id': { kind: 'item', ok: 204, needs: 'PAGE_LOCATION.EDIT', request: async (w, at) => ({ url: `/api/dictionary-items/${await locationAt(w, at)}` }) },
  'POST /api/dictionary-items/:id/attribute-values': {
    kind: 'item',
    needs: 'PAGE_LOCATION.EDIT',
    request: async (w, at) => ({
      url: `/api/dictionary-items/${await locationAt(w, at)}/attribute-values`,
      payload: { attributeId: await locationAttributeId(w), stringValue: 'note' },
    }),
  },
  'DELETE /api/dictionary-items/:id/attribute-values/:valueId': {
    kind: 'item',
    ok: 204,
    needs: 'PAGE_LOCATION.EDIT',
    request: async (w, at) => {
      const item = await locationAt(w, at);
      const values = await w.asRoot('POST', `/api/dictionary-items/${item}/attribute-values`, { attributeId: await locationAttributeId(w), stringValue: 'note' });
      return { url: `/api/dictionary-items/${item}/attribute-values/${values.pageRows[0].id}` };
    },
  },
  'GET /api/locations/:id/agents': { kind: 'item', request: async (w, at) => ({ url: `/api/locations/${await locationAt(w, at)}/agents` }) },
  'GET /api/locations/:id/devices': { kind: 'item', request: async (w, at) => ({ url: `/api/locations/${await locationAt(w, at)}/devices` }) },
  'GET /api/locations/:id/plan': { kind: 'item', request: async (w, at) => ({ url: `/api/locations/${await locationAt(w, at)}/plan` }) },
  'GET /api/locations/:id/plan/image': { kind: 'item', request: async (w, at) => ({ url: `/api/locations/${await locationWithPlanAt(w, at)}/plan/image` }) },
  'POST /api/locations/:id/plan': { kind: 'skip', reason: 'a multipart upload: locations.routes.test.ts checks its grant and scope' },
  'DELETE /api/locations/:id/plan': { kind: 'item', ok: 204, request: async (w, at) => ({ url: `/api/locations/${await locationWithPlanAt(w, at)}/plan` }) },
  'PUT /api/locations/:id/plan/placements': {
    kind: 'item',
    request: async (w, at) => ({ url: `/api/locations/${await locationAt(w, at)}/plan/placements`, payload: { placements: [] } }),
  },

  // dictionaries: a customer's at its location, the system ones the default administrator's
  ...DICTIONARY_ROUTES,

  // options
  'GET /api/options/build-version/': { kind: 'global', request: () => ({ url: '/api/options/build-version/' }) },
  // settings (instance-wide)
  'GET /api/settings/': { kind: 'global', request: () => ({ url: '/api/settings/' }) },
  'PUT /api/settings': { kind: 'instance', request: () => ({ url: '/api/settings', payload: [{ code: 'LOG_STORAGE_DAYS', numericValue: 90 }] }) },
  // The default admin gets past the grants to the mail itself: 422 while SMTP is not set up.
  'POST /api/settings/test-email': { kind: 'instance', ok: 422, request: () => ({ url: '/api/settings/test-email', payload: { to: 'someone@example.com' } }) },
  // Notification channels (issue 42): the default administrator's, as the SMTP settings.
  'GET /api/settings/notification-channels': { kind: 'instance', request: () => ({ url: '/api/settings/notification-channels' }) },
  'GET /api/settings/notification-channels/:id': { kind: 'instance', request: async (w) => ({ url: `/api/settings/notification-channels/${await channelOf(w)}` }) },
  'POST /api/settings/notification-channels': { kind: 'instance', request: () => ({ url: '/api/settings/notification-channels', payload: channelPayload() }) },
  'PUT /api/settings/notification-channels/:id': { kind: 'instance', request: async (w) => ({ url: `/api/settings/notification-channels/${await channelOf(w)}`, payload: channelPayload() }) },
  'DELETE /api/settings/notification-channels/:id': { kind: 'instance', ok: 204, request: async (w) => ({ url: `/api/settings/notification-channels/${await channelOf(w)}` }) },
  // Nothing listens on port 9 (discard): the default admin gets as far as the refused connection.
  'POST /api/settings/notification-channels/:id/test': { kind: 'instance', ok: 422, request: async (w) => ({ url: `/api/settings/notification-channels/${await channelOf(w)}/test` }) },
  'GET /api/notification-channels': { kind: 'global', request: () => ({ url: '/api/notification-channels' }) },

  // event log: records written straight through the event log, at the location
  'GET /api/event-logs/page': {
    kind: 'list',
    seed: async (w) => ({
      inside: [await logAt(w, w.loc.IN_CHILD), await logAt(w, w.loc.IN)],
      outside: [await logAt(w, w.loc.OUT), await logAt(w, null)],
    }),
    request: () => ({ url: `/api/event-logs/page?page=1000,1&filter-json=${encodeURIComponent(JSON.stringify(['message', '=', 'matrix-log']))}` }),
  },
  'GET /api/event-logs/:id': { kind: 'item', request: async (w, at) => ({ url: `/api/event-logs/${await logAt(w, at)}` }) },
  'GET /api/event-groups': { kind: 'global', request: () => ({ url: '/api/event-groups' }) },

  // agents (console side)
  ...listOf(['/api/agents', '/api/agents/page', '/api/agents-v', '/api/agents-v/page'], {
    kind: 'list',
    seed: async (w) => ({ inside: [await agentAt(w, w.loc.IN_CHILD)], outside: [await agentAt(w, w.loc.OUT)] }),
  }),
  'GET /api/agents/:id': { kind: 'item', request: async (w, at) => ({ url: `/api/agents/${await agentAt(w, at)}` }) },
  'GET /api/agents/:id/status': { kind: 'item', request: async (w, at) => ({ url: `/api/agents/${await agentAt(w, at)}/status` }) },
  'GET /api/agents/:id/devices-status': { kind: 'item', request: async (w, at) => ({ url: `/api/agents/${await agentAt(w, at)}/devices-status` }) },
  'POST /api/agents': { kind: 'item', request: async (_w, at) => ({ url: '/api/agents', payload: { name: unique('agent'), location: { id: at } } }) },
  'PUT /api/agents/:id': {
    kind: 'item',
    request: async (w, at) => ({ url: `/api/agents/${await agentAt(w, at)}`, payload: { name: unique('renamed'), location: { id: at } } }),
  },
  'PUT /api/agents/:id/updates': { kind: 'item', request: async (w, at) => ({ url: `/api/agents/${await agentAt(w, at)}/updates`, payload: { paused: true } }) },
  // The release offered and the pause for all: the same for every caller who reads agents.
  'GET /api/agents/release': { kind: 'global', request: () => ({ url: '/api/agents/release' }) },
  'POST /api/agents/:id/regenerate-token': { kind: 'item', request: async (w, at) => ({ url: `/api/agents/${await agentAt(w, at)}/regenerate-token` }) },
  'DELETE /api/agents/:id': { kind: 'item', ok: 204, request: async (w, at) => ({ url: `/api/agents/${await agentAt(w, at)}` }) },
  // Acts on the agents in the caller's scope only; agents.service tests count them.
  'POST /api/agents/notify-all/:action': { kind: 'global', request: () => ({ url: '/api/agents/notify-all/UPDATE_VERSION' }) },

  // the agents' own API: agent tokens only
  'POST /api/agent/register': { kind: 'agent' },
  'GET /api/agent/config': { kind: 'agent' },
  'GET /api/agent/models-pack': { kind: 'agent' },
  'POST /api/agent/status': { kind: 'agent' },
  'POST /api/agent/runs': { kind: 'agent' },
  'POST /api/agent/runs/:runId/problems': { kind: 'agent' },
  'POST /api/agent/runs/:runId/finish': { kind: 'agent' },
  'POST /api/agent/readings': { kind: 'agent' },
  'GET /api/agent/update/:platform': { kind: 'agent' },
  'POST /api/agent/update/refused': { kind: 'agent' },

  // network ranges
  ...listOf(['/api/network-ranges', '/api/network-ranges/page', '/api/network-ranges-v', '/api/network-ranges-v/page'], {
    kind: 'list',
    seed: async (w) => ({ inside: [await rangeAt(w, w.loc.IN_CHILD)], outside: [await rangeAt(w, w.loc.OUT)] }),
  }),
  'GET /api/network-ranges/:id': { kind: 'item', request: async (w, at) => ({ url: `/api/network-ranges/${await rangeAt(w, at)}` }) },
  'POST /api/network-ranges': { kind: 'item', request: async (_w, at) => ({ url: '/api/network-ranges', payload: rangePayload(at) }) },
  'PUT /api/network-ranges/:id': { kind: 'item', request: async (w, at) => ({ url: `/api/network-ranges/${await rangeAt(w, at)}`, payload: rangePayload(at) }) },
  'DELETE /api/network-ranges/:id': { kind: 'item', ok: 204, request: async (w, at) => ({ url: `/api/network-ranges/${await rangeAt(w, at)}` }) },

  // print queues and their jobs
  ...listOf(['/api/queues', '/api/queues/page', '/api/queues-v', '/api/queues-v/page'], {
    kind: 'list',
    seed: async (w) => ({ inside: [await queueAt(w, w.loc.IN_CHILD)], outside: [await queueAt(w, w.loc.OUT)] }),
  }),
  'GET /api/queue-jobs/page': {
    kind: 'list',
    seed: async (w) => ({ inside: [await queueJobAt(w, w.loc.IN_CHILD)], outside: [await queueJobAt(w, w.loc.OUT)] }),
    request: () => ({ url: '/api/queue-jobs/page?page=1000,1' }),
  },
  'GET /api/queues/:id': { kind: 'item', request: async (w, at) => ({ url: `/api/queues/${await queueAt(w, at)}` }) },
  'POST /api/queues': { kind: 'item', request: async (w, at) => ({ url: '/api/queues', payload: await queuePayload(w, at) }) },
  'PUT /api/queues/:id': { kind: 'item', request: async (w, at) => ({ url: `/api/queues/${await queueAt(w, at)}`, payload: await queuePayload(w, at) }) },
  'POST /api/queues/:id/reset': { kind: 'item', request: async (w, at) => ({ url: `/api/queues/${await queueAt(w, at)}/reset` }) },
  'DELETE /api/queues/:id': { kind: 'item', ok: 204, request: async (w, at) => ({ url: `/api/queues/${await queueAt(w, at)}` }) },
  'POST /api/agent/queue-jobs': { kind: 'agent' },

  // models pack upload: the default administrator's, with a secret key; their JSON call passes the
  // access check and is refused for its body (415). The upload itself is tested with the models module.
  'POST /api/versions/upload': { kind: 'instance', ok: 415, request: () => ({ url: '/api/versions/upload', payload: {} }) },

  // devices, consumables, their history and statistics
  'GET /api/devices/page': { kind: 'list', seed: devicesSeed, request: () => ({ url: '/api/devices/page?page=1000,1' }) },
  'GET /api/device-part-v/page': { kind: 'list', seed: devicesSeed, rows: deviceIds, request: () => ({ url: '/api/device-part-v/page?page=1000,1' }) },
  'GET /api/device-part-short-v/page': { kind: 'list', seed: devicesSeed, rows: deviceIds, request: () => ({ url: '/api/device-part-short-v/page?page=1000,1' }) },
  'GET /api/dm-device-days/page': { kind: 'list', seed: devicesSeed, rows: deviceIds, request: () => ({ url: '/api/dm-device-days/page?page=1000,1' }) },
  'GET /api/dm-device-days-v/page': { kind: 'list', seed: devicesSeed, rows: deviceIds, request: () => ({ url: '/api/dm-device-days-v/page?page=1000,1' }) },
  'GET /api/dm-device-days-actual-v/page': { kind: 'list', seed: devicesSeed, rows: deviceIds, request: () => ({ url: '/api/dm-device-days-actual-v/page?page=1000,1' }) },
  'GET /api/dm-device-part-days/page': { kind: 'list', seed: devicesSeed, rows: deviceIds, request: () => ({ url: '/api/dm-device-part-days/page?page=1000,1' }) },
  'GET /api/dm-device-user-days/page': { kind: 'list', seed: devicesSeed, rows: deviceIds, request: () => ({ url: '/api/dm-device-user-days/page?page=1000,1' }) },
  'GET /api/dm-device-history/page': { kind: 'list', seed: devicesSeed, rows: deviceIds, request: () => ({ url: '/api/dm-device-history/page?page=1000,1' }) },
  'GET /api/statistics-v': {
    kind: 'list',
    seed: locationsSeed,
    rows: (b) => b.pageRows.map((r: { locationId: number }) => r.locationId),
    request: () => ({ url: '/api/statistics-v' }),
  },
  'GET /api/statistics/locations/:id/devices': { kind: 'item', request: async (_w, at) => ({ url: `/api/statistics/locations/${at}/devices` }) },
  'GET /api/devices/:id': { kind: 'item', request: async (w, at) => ({ url: `/api/devices/${await deviceAt(w, at)}` }) },
  'PUT /api/devices/:id': { kind: 'item', request: async (w, at) => ({ url: `/api/devices/${await deviceAt(w, at)}`, payload: { comment: 'matrix' } }) },
  'DELETE /api/devices/:id': { kind: 'item', ok: 204, request: async (w, at) => ({ url: `/api/devices/${await deviceAt(w, at)}` }) },
  'POST /api/devices/:id/merge': {
    kind: 'item',
    request: async (w, at) => ({ url: `/api/devices/${await deviceAt(w, at)}/merge`, payload: { fromId: await deviceAt(w, at) } }),
  },
  // Meter corrections (issue 41): read with the device, entered and withdrawn as a device write.
  'GET /api/devices/:id/meter-corrections': { kind: 'item', request: async (w, at) => ({ url: `/api/devices/${await deviceAt(w, at)}/meter-corrections` }) },
  'POST /api/devices/:id/meter-corrections': {
    kind: 'item',
    request: async (w, at) => ({ url: `/api/devices/${await deviceAt(w, at)}/meter-corrections`, payload: { meter: 'total', fromDate: '2024-01-01', offset: 100, reason: 'matrix' } }),
  },
  // A counter reset (issue 54): from tomorrow on, every meter carried over from the device's day of today.
  'POST /api/devices/:id/meter-corrections/reset': {
    kind: 'item',
    request: async (w, at) => ({ url: `/api/devices/${await deviceAt(w, at)}/meter-corrections/reset`, payload: { fromDate: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10), reason: 'matrix' } }),
  },
  'POST /api/devices/:id/meter-corrections/:correctionId/withdraw': {
    kind: 'item',
    request: async (w, at) => {
      const device = await deviceAt(w, at);
      const [c] = await w.asRoot('POST', `/api/devices/${device}/meter-corrections`, { meter: 'total', fromDate: '2024-01-01', offset: 100, reason: 'matrix' });
      return { url: `/api/devices/${device}/meter-corrections/${c.id}/withdraw`, payload: { reason: 'matrix' } };
    },
  },
  // The device's own web page (issue 55): opened on a device read by an agent, listed as the caller's own.
  'POST /api/devices/:id/web-sessions': {
    kind: 'item',
    request: async (w, at) => {
      const device = await deviceAt(w, at);
      await w.ctx.db.execute(sql`UPDATE devices SET agent_id = ${await agentAt(w, at)} WHERE id = ${device}`);
      return { url: `/api/devices/${device}/web-sessions`, payload: { port: 80 } };
    },
  },
  'GET /api/devices/:id/web-sessions': { kind: 'item', request: async (w, at) => ({ url: `/api/devices/${await deviceAt(w, at)}/web-sessions` }) },
  'DELETE /api/device-web-sessions/:id': { kind: 'skip', reason: "only the session's owner closes it (others: 404): device-web.test.ts checks its grant, owner and scope" },
  'GET /api/agent/web-requests': { kind: 'agent' },
  'POST /api/agent/web-requests/:id': { kind: 'agent' },
  'POST /api/agent/web-requests/:id/stream': { kind: 'agent' },
  'POST /api/devices/:id/not-same': {
    kind: 'item',
    request: async (w, at) => ({ url: `/api/devices/${await deviceAt(w, at)}/not-same`, payload: { otherId: await deviceAt(w, at) } }),
  },
  // Home's short lists name devices: those needing attention, inside the caller's locations only.
  'GET /api/home': {
    kind: 'list',
    seed: async (w) => {
      const inError = async (at: number) => {
        const id = await deviceAt(w, at);
        await w.ctx.db.execute(sql`UPDATE devices SET status_code = 'ERROR' WHERE id = ${id}`);
        return id;
      };
      const inside = [await inError(w.loc.IN), await inError(w.loc.IN_CHILD)];
      const outside = [await inError(w.loc.OUT), await inError(w.loc.DEFAULT)];
      // As ingest would: a device event tells home its figures changed.
      w.ctx.hub.publish('devices', { type: 'DEVICE_EVENT', deviceId: inside[0]!, locationId: w.loc.IN, event: 'STATUS_CHANGE' });
      // Then, as the console does while home says `pending`, ask until the figures include them.
      while ((await w.asRoot('GET', '/api/home')).pending) await new Promise((r) => setTimeout(r, 10));
      return { inside, outside };
    },
    request: () => ({ url: '/api/home' }),
    rows: (b) => (b.devices?.attention.rows ?? []).map((r: { id: number }) => r.id),
  },
  // Alerts (issue 42): of devices (and agents) inside the caller's locations only.
  'GET /api/alerts': {
    kind: 'list',
    seed: async (w) => ({
      inside: [await alertAt(w, w.loc.IN), await alertAt(w, w.loc.IN_CHILD)],
      outside: [await alertAt(w, w.loc.OUT), await alertAt(w, w.loc.DEFAULT)],
    }),
    request: () => ({ url: '/api/alerts?open=true&limit=500' }),
    rows: (b) => b.map((a: { id: number }) => a.id),
  },
  'POST /api/alerts/:id/acknowledge': { kind: 'item', request: async (w, at) => ({ url: `/api/alerts/${await alertAt(w, at)}/acknowledge` }) },
  'POST /api/devices/change-activity': {
    kind: 'item',
    request: async (w, at) => ({ url: '/api/devices/change-activity', payload: { ids: [await deviceAt(w, at)], managedFlag: false } }),
  },
  'POST /api/dm-device-days/device/:id/update-walk': { kind: 'item', request: async (w, at) => ({ url: `/api/dm-device-days/device/${await deviceAt(w, at)}/update-walk` }) },
  // A zip of the scope's walks: devices.routes.test.ts unzips it and checks the scope.
  'GET /api/devices/walks': { kind: 'global', request: () => ({ url: '/api/devices/walks' }) },
  // Multipart uploads: a JSON call passes the access check and is refused for its body (400);
  // devices.routes.test.ts sends the files and checks the scope.
  'POST /api/service/set-active-status': { kind: 'global', ok: 400, request: () => ({ url: '/api/service/set-active-status', payload: {} }) },
  'POST /api/service/set-inactive-status': { kind: 'global', ok: 400, request: () => ({ url: '/api/service/set-inactive-status', payload: {} }) },
  // Acts on the caller's scope only; devices.routes.test.ts checks that.
  'POST /api/service/reset-status': { kind: 'global', request: () => ({ url: '/api/service/reset-status' }) },

  // notifications: at a location, with a subscriber there
  ...listOf(['/api/notifications', '/api/notifications/page'], {
    kind: 'list',
    seed: async (w) => ({ inside: [await notificationAt(w, w.loc.IN_CHILD)], outside: [await notificationAt(w, w.loc.OUT)] }),
  }),
  ...listOf(['/api/user-notifications-v', '/api/user-notifications-v/page'], {
    kind: 'list',
    seed: async (w) => ({ inside: [await notificationAt(w, w.loc.IN_CHILD)], outside: [await notificationAt(w, w.loc.OUT)] }),
    rows: (b) => b.pageRows.map((r: { notificationId: number }) => r.notificationId),
  }),
  'GET /api/notification-types': { kind: 'global', request: () => ({ url: '/api/notification-types' }) },
  // Lists the caller's users only: notifications.routes.test.ts checks that.
  'GET /api/notification-subscribers': { kind: 'global', request: () => ({ url: '/api/notification-subscribers' }) },
  'GET /api/notifications/:id': { kind: 'item', request: async (w, at) => ({ url: `/api/notifications/${await notificationAt(w, at)}` }) },
  'POST /api/notifications': { kind: 'item', request: async (w, at) => ({ url: '/api/notifications', payload: notificationPayload(at, await w.userAt(at)) }) },
  'PUT /api/notifications/:id': {
    kind: 'item',
    request: async (w, at) => ({ url: `/api/notifications/${await notificationAt(w, at)}`, payload: notificationPayload(at, await w.userAt(at)) }),
  },
  'DELETE /api/notifications/:id': { kind: 'item', ok: 204, request: async (w, at) => ({ url: `/api/notifications/${await notificationAt(w, at)}` }) },
  // The matrix has no SMTP server: a caller who may test gets as far as "SMTP is not configured".
  'POST /api/notifications/:id/test-email/': { kind: 'item', ok: 422, request: async (w, at) => ({ url: `/api/notifications/${await notificationAt(w, at)}/test-email/` }) },

  ...REPORT_AND_LICENSE_ROUTES,
  ...SUPPLY_ORDER_ROUTES,
  ...BILLING_ROUTES,
  ...IDENTITY_PROVIDER_ROUTES,

  // live events
  'GET /ws': { kind: 'skip', reason: 'a WebSocket upgrade; realtime.test.ts checks its token' },
};

/** More cases of a route, for the other kinds of object it serves: route key → what the case is → fixture. */
export const VARIANTS: Record<string, Record<string, Fixture>> = { ...DICTIONARY_VARIANTS };

/** Routes the OpenAPI plugin registers for itself; public documentation. */
export const PLUGIN_PREFIXES = ['/api/docs'];
