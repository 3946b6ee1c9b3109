import { readFileSync } from 'node:fs';
import { findPackageJSON } from 'node:module';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import { Kind, type OperationDefinitionNode, parse } from 'graphql';
import { rootFields } from '../credits/root-fields.js';
import type { PriceTable } from '../gateway/prices.js';
import { surfaceOf } from './errors.js';
import { partnerErrorSchema } from './rest-route.js';

/** What the document needs of a REST route beyond its Fastify schema: the operation it runs, for its price. */
export interface PricedOperation {
  method: string;
  url: string;
  operation: string;
}

const publicErrorSchema = { type: 'object', properties: { message: { type: 'string' } } } as const;

/** Credits one call of the operation costs, from the supergraph's `@credits` price table. */
export function creditsOf(operation: string, prices: PriceTable): number {
  const document = parse(operation);
  const op = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (!op) throw new Error('operation missing');
  return rootFields(op, {}, {}, prices).reduce((sum, field) => sum + field.price, 0);
}

/**
 * `/openapi.json` (OpenAPI 3.1) and the `/docs` page, both built from the route schemas Fastify holds:
 * @fastify/swagger records every route as it is added, so this plugin must be registered before the REST
 * routes. Only REST paths (`/partners/*`, `/api/public/*`) are documented; each operation carries its
 * price as `x-credits`, partner operations the `x-api-key` scheme, and every one its error shape.
 * The docs page (Swagger UI) is served from the installed package, so it works without internet.
 */
export const openapiPlugin = fp(
  async (app: FastifyInstance, opts: { operations: PricedOperation[]; prices: PriceTable }) => {
    // The nearest package.json, from src/ under tests and from dist/src/ when built.
    const manifest = findPackageJSON('..', import.meta.url);
    const version = manifest ? (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version : '0.0.0';
    const credits = new Map(opts.operations.map((r) => [`${r.method} ${r.url}`, creditsOf(r.operation, opts.prices)]));
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'cipgate',
          version,
          description:
            'Credit-metered identity and bridge API. Partner paths need an `x-api-key`; `x-credits` on each ' +
            'operation is its price in credits per answered call (errors are free). The same operations are ' +
            'served by GraphQL at `/graphql`.',
        },
        components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } } },
      },
      transform: ({ schema, url, route }) => {
        const method = Array.isArray(route.method) ? route.method[0] : route.method;
        const surface = surfaceOf(url);
        const price = credits.get(`${method} ${url}`);
        if ((surface !== 'partner' && surface !== 'public') || price === undefined) {
          return { schema: { ...schema, hide: true } as FastifySchema, url };
        }
        const errorSchema = surface === 'partner' ? partnerErrorSchema : publicErrorSchema;
        const response = (schema?.response ?? {}) as Record<string, unknown>;
        return {
          url,
          schema: {
            ...schema,
            summary: schema?.summary ?? `${method} ${url}`,
            tags: [surface === 'partner' ? 'partner' : 'public'],
            ...(surface === 'partner' ? { security: [{ apiKey: [] }] } : {}),
            response: { '4xx': errorSchema, '5xx': errorSchema, ...response },
            'x-credits': price,
          } as FastifySchema,
        };
      },
    });
    await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true, tryItOutEnabled: false } });
    app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  },
);
