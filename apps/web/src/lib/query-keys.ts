/**
 * Query keys that more than one feature, or a shared part of the console, reads: one cache
 * entry per server list, whichever screen asks. A feature's own keys live in its `api/` file;
 * no page or component writes a key as a literal (query-keys.test.ts checks it).
 */
export const sharedKeys = {
  /** `/user-locations/`: the caller's locations (the location pickers of several forms). */
  userLocations: ['user-locations'] as const,
  /** `/agents` by name, as options for a picker (queues, network ranges). */
  agentOptions: ['agents', 'options'] as const,
  /** `/instance-license/`: the license screen and the footer's status link share it. */
  instanceLicense: ['instance-license'] as const,
  buildVersion: ['build-version'] as const,
  reportTypes: ['report-types'] as const,
  /** Every lookup (dictionary items, printer types, statuses…), and one of them by name. */
  lookups: ['lookup'] as const,
  lookup: (name: string) => ['lookup', name] as const,
  /** A device's open supply orders (the device card); under the supply-orders screen's keys, so an order there reloads it. */
  deviceSupplyOrders: (deviceId: number) => ['supply-orders', 'device', deviceId] as const,
  /** The forecasts' accuracy (home, the consumables grid, every forecast shown). */
  forecastAccuracy: ['forecast-accuracy'] as const,
};
