import { z } from 'zod';

/** `GET /config.json`: where the console finds the API and the WebSocket. */
export const clientConfigSchema = z.object({
  API: z.string(),
  WS: z.string(),
  NETWORK_RANGE_SHOW_PORTS: z.boolean(),
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;

export const buildVersionSchema = z.object({
  releaseDate: z.string(),
  appVersion: z.string(),
  buildNumber: z.string(),
  modelsVersion: z.object({ versionNumber: z.string() }).optional(),
});
export type BuildVersion = z.infer<typeof buildVersionSchema>;
