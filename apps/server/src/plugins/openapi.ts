import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { VERSION } from '../modules/options/index.ts';

/** How a caller proves itself (plugins/access.ts); each is `Authorization: Bearer <token>`. */
const SECURITY_SCHEMES = {
  session: { type: 'http', scheme: 'bearer', description: 'The token a sign-in (POST /api/auth/) answers with.' },
  apiToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'A personal API token (pwt_…, made in the console or with POST /api/users/me/tokens): acts as its user, with their grants and locations; ' +
      'a read-only one calls GET only; refused (403) on sign-out, user management and the tokens themselves; throttled per token (429 with Retry-After).',
  },
  agent: { type: 'http', scheme: 'bearer', description: "An agent's token: the /api/agent/ routes only." },
} as const;

/** Which of them a route takes, by its declared access. */
function securityOf(config: { access?: string; sessionOnly?: boolean } | undefined): Record<string, string[]>[] {
  if (!config?.access || config.access === 'public') return [];
  if (config.access === 'agent') return [{ agent: [] }];
  return config.sessionOnly ? [{ session: [] }] : [{ session: [] }, { apiToken: [] }];
}

/** OpenAPI generated from the routes' zod schemas, browsable at /api/docs. */
export async function setupOpenApi(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Pagewatch API', version: VERSION.appVersion },
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: (arg) => {
      const out = jsonSchemaTransform(arg);
      return { ...out, schema: { ...out.schema, security: securityOf(arg.route.config as never) } };
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
}
