import { z } from 'zod';

/** `GET /config.json`: where the console finds the API and the WebSocket. */
export const clientConfigSchema = z.object({
  API: z.string(),
  WS: z.string(),
  NETWORK_RANGE_SHOW_PORTS: z.boolean(),
  /** Cloud mode: customers sign in by e-mail; queues and settings stay at DEFAULT. Absent: off. */
  CLOUD: z.boolean().default(false),
  /** Whether e-mails can link to the console (PAGEWATCH_PUBLIC_URL is set); forms warn when not. */
  MAIL_LINKS: z.boolean().default(true),
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;

export const buildVersionSchema = z.object({
  releaseDate: z.string(),
  appVersion: z.string(),
  buildNumber: z.string(),
  modelsVersion: z.object({ versionNumber: z.string() }).optional(),
});
export type BuildVersion = z.infer<typeof buildVersionSchema>;

/** GET /options/product/: the product page (spec section 2), for every signed-in user. */
export const productInfoSchema = z.object({
  appVersion: z.string(),
  buildNumber: z.string(),
  releaseDate: z.string(),
  copyright: z.string(),
  support: z.object({ email: z.string().nullable(), phone: z.string().nullable(), url: z.string().nullable() }),
});
export type ProductInfo = z.infer<typeof productInfoSchema>;

/** GET /options/downloads/: the files a cloud ADMIN downloads from the product page (at most 50). */
/** A file of the product page's downloads; an agent build carries its SHA-256 (null for other files). */
export const downloadFileSchema = z.object({ name: z.string(), size: z.number().int(), sha256: z.string().nullable() });
export type DownloadFile = z.infer<typeof downloadFileSchema>;
