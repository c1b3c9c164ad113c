import { z } from 'zod';
import { text } from './fields.ts';

/** What every API token starts with: told apart from sessions and agent tokens at a glance (and by the server). */
export const API_TOKEN_PREFIX = 'pwt_';
/** How long a token may live at most: an integration is re-keyed at least once a year. */
export const API_TOKEN_MAX_DAYS = 366;
/** Tokens a user may hold at once (revoked and expired ones do not count). */
export const API_TOKENS_PER_USER = 20;

/** A token as its owner sees it: never the token itself, which is shown once, when it is made. */
export const apiTokenSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The token's first characters, to recognise it by. */
  prefix: z.string(),
  readOnly: z.boolean(),
  expiresAt: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

export const apiTokenInputSchema = z.object({
  name: text(100, { line: true }).trim().min(1, 'general.mandatory'),
  expiresInDays: z.number('general.badValue').int('general.badValue').min(1, 'apiTokens.daysRange').max(API_TOKEN_MAX_DAYS, 'apiTokens.daysRange'),
  readOnly: z.boolean().default(false),
});
export type ApiTokenInput = z.input<typeof apiTokenInputSchema>;

/** The answer to making one: the token, in clear, this once. */
export const apiTokenWithSecretSchema = apiTokenSchema.extend({ token: z.string() });
export type ApiTokenWithSecret = z.infer<typeof apiTokenWithSecretSchema>;
