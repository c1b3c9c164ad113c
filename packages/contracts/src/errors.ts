import { z } from 'zod';

/** Every error the API returns has this shape; `message` is in the caller's language. */
export const errorBodySchema = z.object({
  code: z.string(),
  message: z.string(),
  details: z
    .array(z.object({ field: z.string(), message: z.string() }))
    .optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Error codes and their HTTP status. The code doubles as the i18n key under `errors.`. */
export const ERROR_STATUS = {
  VALIDATION: 400,
  BAD_LIST_QUERY: 400,
  UNAUTHENTICATED: 401,
  BAD_CREDENTIALS: 401,
  TOKEN_EXPIRED: 401,
  FORBIDDEN: 403,
  OUT_OF_SCOPE: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  TOO_LARGE: 413,
  /** The agent speaks an agent API older than the server takes (agent-api.ts): it must be updated. */
  AGENT_UPDATE_REQUIRED: 426,
  UNSUPPORTED_MEDIA: 415,
  UNPROCESSABLE: 422,
  /** A stored secret would go to a new destination: the request must give it again (or clear it). */
  SECRET_REQUIRED: 422,
  TOO_MANY_ATTEMPTS: 429,
  SMTP_NOT_CONFIGURED: 422,
  PUBLIC_URL_NOT_CONFIGURED: 422,
  MAIL_FAILED: 502,
  RESTORE_TOKEN_INVALID: 400,
  INTERNAL: 500,
  /** The database cannot be reached (restart, failover); try again shortly. */
  DATABASE_UNAVAILABLE: 503,
  /** The database is out of disk space or memory (SQLSTATE class 53); try again once it is fixed. */
  DATABASE_FULL: 503,
  NOT_READY: 503,
  /** Too many files are being made on this server; try again after Retry-After (issue 39). */
  EXPORTS_BUSY: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;
