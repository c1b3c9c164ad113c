/** The api-tokens module's public surface (issue 42). */
export { ApiTokensService } from './api-tokens.service.ts';
