import { deviceAt, reportDevices, replacedAt, locationAt, licensePayload, licenseAt, locationsSeed, type Fixture } from './authorization-world.ts';

type ListFixture = Extract<Fixture, { kind: 'list' }>;
/** A report's rows: one device (`make` puts it and its data there) inside the caller's locations, one outside. */
const reportRows = (make: typeof deviceAt, url: string): ListFixture => ({
  kind: 'list',
  seed: async (w) => ({ inside: [await make(w, w.loc.IN_CHILD)], outside: [await make(w, w.loc.OUT)] }),
  rows: reportDevices,
  request: () => ({ url }),
});

/** The authorisation matrix's reports and licenses (see authorization-routes.ts, "ADDING A ROUTE"). */
export const REPORT_AND_LICENSE_ROUTES: Record<string, Fixture> = {
  // reports: every row belongs to a location of the caller (rows carry their location)
  'GET /api/reports': { kind: 'global', request: () => ({ url: '/api/reports' }) },
  'GET /api/reports/device-availability': reportRows(deviceAt, '/api/reports/device-availability?from=2022-01-01&to=2022-01-31'),
  'GET /api/reports/device-counters': reportRows(deviceAt, '/api/reports/device-counters?from=2022-01-01&to=2099-12-31'),
  'GET /api/reports/installed-consumables': reportRows(deviceAt, '/api/reports/installed-consumables'),
  'GET /api/reports/installed-consumables/page': { ...reportRows(deviceAt, '/api/reports/installed-consumables/page?page=1000,1'), rows: (b) => reportDevices(b.pageRows) },
  'GET /api/reports/meter-reads': reportRows(deviceAt, '/api/reports/meter-reads?from=2022-01-01&to=2099-12-31'),
  'GET /api/reports/part-replacements': reportRows(replacedAt, '/api/reports/part-replacements?from=2022-01-01&to=2099-12-31'),
  // Act on the caller's scope only, like the data calls (their rows are sums); reports.routes.test.ts checks that.
  'GET /api/reports/device-availability/days': { kind: 'global', request: () => ({ url: '/api/reports/device-availability/days?from=2022-01-01&to=2022-01-31' }) },
  'GET /api/reports/device-counters/months': { kind: 'global', request: () => ({ url: '/api/reports/device-counters/months?from=2022-01-01&to=2022-01-31' }) },
  'GET /api/reports/download/:reportId/:formatCode': { kind: 'global', request: () => ({ url: '/api/reports/download/4/CSV' }) },

  // licenses: reads answer for the caller's locations; the instance license and every change
  // are the default administrator's ('instance'). The uploads with files: instance-license.routes.test.ts.
  'GET /api/options/product/': { kind: 'global', request: () => ({ url: '/api/options/product/' }) },
  'GET /api/options/downloads/': { kind: 'skip', reason: 'by role (an ADMIN), not grant: options/downloads.routes.test.ts checks who gets what' },
  'GET /api/options/downloads/:name': { kind: 'skip', reason: 'by role (an ADMIN), not grant: options/downloads.routes.test.ts checks who gets what' },
  'GET /api/instance-license/': { kind: 'instance', request: () => ({ url: '/api/instance-license/' }) },
  'GET /api/instance-license/request/': { kind: 'instance', request: () => ({ url: '/api/instance-license/request/?companyName=Matrix' }) },
  'POST /api/instance-license': { kind: 'instance', ok: 400, request: () => ({ url: '/api/instance-license', payload: {} }) },
  'GET /api/user-licenses/page': { kind: 'list', seed: locationsSeed, request: () => ({ url: '/api/user-licenses/page?page=1000,1' }) },
  'GET /api/user-licenses/:id': { kind: 'item', request: async (w, at) => ({ url: `/api/user-licenses/${await licenseAt(w, at)}` }) },
  'GET /api/user-licenses-relevant/': {
    kind: 'list',
    seed: async (w) => ({ inside: [await licenseAt(w, w.loc.IN_CHILD)], outside: [await licenseAt(w, w.loc.OUT)] }),
    request: () => ({ url: '/api/user-licenses-relevant/' }),
  },
  'GET /api/user-locations/managed-license': { kind: 'list', seed: locationsSeed, request: () => ({ url: '/api/user-locations/managed-license' }) },
  'GET /api/location-devices-v/:id': { kind: 'item', request: async (_w, at) => ({ url: `/api/location-devices-v/${at}` }) },
  'POST /api/licenses': { kind: 'instance', request: async (w) => ({ url: '/api/licenses', payload: licensePayload(await locationAt(w, w.loc.IN_CHILD)) }) },
  'PUT /api/licenses/:id': {
    kind: 'instance',
    request: async (w) => {
      const id = await licenseAt(w, w.loc.IN_CHILD);
      const license = await w.asRoot('GET', `/api/user-licenses/${id}`);
      return { url: `/api/licenses/${id}`, payload: { ...licensePayload(license.location.id), deviceCount: 20 } };
    },
  },
  'DELETE /api/licenses/:id': { kind: 'instance', ok: 204, request: async (w) => ({ url: `/api/licenses/${await licenseAt(w, w.loc.IN_CHILD)}` }) },
};
