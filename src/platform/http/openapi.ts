import { readFileSync } from 'node:fs';
import { findPackageJSON } from 'node:module';
import { Readable } from 'node:stream';
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  HTTPMethods,
  RouteOptions,
} from 'fastify';
import fp from 'fastify-plugin';
import { Kind, type OperationDefinitionNode, parse } from 'graphql';
import type { PriceTable } from '../credits/prices.js';
import { rootFields } from '../credits/root-fields.js';
import { surfaceOf } from './errors.js';
import { type OpenApiDocument, postmanCollection } from './postman.js';
import { partnerErrorSchema } from './rest-route.js';

/** What the document needs of a REST route beyond its Fastify schema: the operation it runs, for its price. */
export interface PricedOperation {
  method: string;
  url: string;
  operation: string;
}

const publicErrorSchema = {
  type: 'object',
  required: ['message'],
  properties: { message: { type: 'string' } },
} as const;

const header = (description: string, type = 'string') => ({ type, description });
/** Headers every counted answer carries (see rate-limit.ts and server-options.ts). */
const COMMON_HEADERS = {
  'x-request-id': header('The request id, as sent (when well-formed) or made by the server.'),
  ratelimit: header('Budget left in this window: `"partner";r=<left>;t=<seconds to reset>` (IETF httpapi draft).'),
  'ratelimit-policy': header('The budget: `"partner";q=<requests>;w=<window seconds>`; `"address"` without a key.'),
};
const CREDIT_HEADERS = {
  'x-credits-charged': header('Credits this answer costs (charged once it is delivered with 200).', 'integer'),
  'x-credits-remaining': header('The balance once this charge settles.', 'integer'),
};

/** The GraphQL operation's name as a method name (`IdentitySearch` → `identitySearch`). */
function operationNameOf(operation: string): string | undefined {
  const op = parse(operation).definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  const name = op?.name?.value;
  return name && name[0]?.toLowerCase() + name.slice(1);
}

/** Credits one call of the operation costs, from the supergraph's `@credits` price table. */
export function creditsOf(operation: string, prices: PriceTable): number {
  const document = parse(operation);
  const op = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (!op) throw new Error('operation missing');
  return rootFields(op, new Map(), {}, prices).reduce((sum, field) => sum + field.price, 0);
}

const DOCS_PREFIX = '/docs';
/** The Swagger UI options of `/docs`. */
const UI_OPTIONS = { routePrefix: DOCS_PREFIX, uiConfig: { deepLinking: true, tryItOutEnabled: false } };

/**
 * The paths @fastify/swagger-ui serves under its prefix, as it declares them: `/` (which answers `/docs`
 * and `/docs/`) and the rest with GET (HEAD added by Fastify), its static files with HEAD and GET.
 * openapi.test.ts checks them against a registered @fastify/swagger-ui.
 */
const DOCS_ROUTES = ['/', '/static/index.html', '/static/swagger-initializer.js', '/json', '/yaml'] as const;
const DOCS_STATIC_ROUTE = '/static/*';

/** The sub-application's verdict on a forwarded request that the main application must give itself. */
const OUTCOME = Symbol('docs outcome');
type Outcome = { notFound: true } | { error: unknown };

/**
 * `/openapi.json` (OpenAPI 3.1) and the `/docs` page, built from the route schemas Fastify holds: every
 * route added after this plugin is recorded as it is added, so it must be registered before the REST
 * routes. Only REST paths (`/partners/*`, `/api/public/*`) are documented; each operation carries its
 * price as `x-credits`, partner operations the `x-api-key` scheme, and every one its error shape.
 * The docs page (Swagger UI) is served from the installed package, so it works without internet.
 *
 * @fastify/swagger, @fastify/swagger-ui and their dependencies (a YAML library, @fastify/static and its
 * file globbing) are loaded at the first request for either path, not at start-up: few processes ever
 * serve one, and the rest would hold them in their heap. They then run in a Fastify instance of their
 * own, fed the recorded routes, and `/docs` requests are forwarded to it; the paths, methods and answers
 * are the same as when Swagger UI is registered on the application itself (openapi.test.ts compares the
 * two).
 */
export const openapiPlugin = fp(
  async (app: FastifyInstance, opts: { operations: PricedOperation[]; prices: PriceTable }) => {
    // A missing package fails the boot, not the first page view.
    for (const name of ['@fastify/swagger', '@fastify/swagger-ui']) {
      if (!findPackageJSON(name, import.meta.url)) throw new Error(`package ${name} is not installed`);
    }
    // The nearest package.json, from src/ under tests and from dist/src/ when built.
    const manifest = findPackageJSON('..', import.meta.url);
    const version = manifest ? (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version : '0.0.0';
    const credits = new Map(opts.operations.map((r) => [`${r.method} ${r.url}`, creditsOf(r.operation, opts.prices)]));
    // One id per documented operation, for generated clients' method names; an alias path gets its path's.
    const operationIds = new Map<string, string>();
    const taken = new Set<string>();
    for (const r of opts.operations) {
      const named = operationNameOf(r.operation);
      const fromPath = `${r.method.toLowerCase()}${r.url
        .split(/[/:-]/)
        .filter(Boolean)
        .map((part) => part[0]?.toUpperCase() + part.slice(1))
        .join('')}`;
      const id = named && !taken.has(named) ? named : fromPath;
      taken.add(id);
      operationIds.set(`${r.method} ${r.url}`, id);
    }
    const priceOf = (route: { method: HTTPMethods | HTTPMethods[]; url: string }) => {
      const method = Array.isArray(route.method) ? route.method[0] : route.method;
      const surface = surfaceOf(route.url);
      const price = credits.get(`${method} ${route.url}`);
      return surface === 'partner' || surface === 'public' ? price : undefined;
    };

    // The routes the document describes, in the order they were added (every other one is hidden in it).
    const documented: RouteOptions[] = [];
    app.addHook('onRoute', (route) => {
      if (priceOf(route) !== undefined) documented.push(route);
    });

    let docs: Promise<FastifyInstance> | undefined;
    const docsApp = () => {
      if (!docs) {
        docs = buildDocsApp({ version, priceOf, routes: documented, operationIds });
        // A failure (a broken install) is not remembered: the next request tries again, and says why.
        docs.catch(() => {
          docs = undefined;
        });
      }
      return docs;
    };
    app.addHook('onClose', async () => {
      const built = await docs?.catch(() => undefined);
      await built?.close();
    });

    app.get('/openapi.json', async () => (await docsApp()).swagger());
    // The same document as a Postman collection (Insomnia and Bruno import it too).
    app.get('/openapi.postman.json', async () =>
      postmanCollection((await docsApp()).swagger() as unknown as OpenApiDocument),
    );

    /** Answers with what the docs application answers to the same request. */
    const forward = async (request: FastifyRequest, reply: FastifyReply, method: 'GET' | 'HEAD', stream: boolean) => {
      // The path travels as a header: inject would resolve `..` and percent-encoded dots in a URL first.
      const headers = { ...request.headers, [ORIGINAL_URL]: request.raw.url };
      const res = await (await docsApp()).inject({ method, url: '/', headers });
      const outcome = (res.raw.res as unknown as Record<symbol, Outcome | undefined>)[OUTCOME];
      // Unknown files and refused paths go through this application's own 404 and error handlers.
      if (outcome && 'notFound' in outcome) return reply.callNotFound();
      if (outcome) throw outcome.error;
      for (const [name, value] of Object.entries(res.headers)) {
        if (value !== undefined && !HOP_HEADERS.has(name)) reply.header(name, value);
      }
      reply.code(res.statusCode);
      // Swagger UI's static files are streams (never buffered, whatever their length); its pages strings,
      // and its redirect nothing at all (so no content type either).
      if (stream) return reply.send(Readable.from(res.rawPayload.length ? [res.rawPayload] : []));
      return reply.send(res.rawPayload.length ? res.payload : undefined);
    };
    await app.register(
      async (ui) => {
        // GET runs for a HEAD too (Fastify's HEAD route): the page is asked for whole, as before, so the
        // HEAD answer carries its length.
        for (const url of DOCS_ROUTES) ui.get(url, (request, reply) => forward(request, reply, 'GET', false));
        ui.route({
          method: ['HEAD', 'GET'],
          url: DOCS_STATIC_ROUTE,
          // As @fastify/static: a client that went away is not an error to log.
          errorHandler(error: FastifyError, request, reply) {
            if (error?.code === 'ERR_STREAM_PREMATURE_CLOSE') {
              request.raw.destroy();
              return;
            }
            return ui.errorHandler(error, request, reply);
          },
          handler: (request, reply) => forward(request, reply, request.method as 'GET' | 'HEAD', true),
        });
      },
      { prefix: DOCS_PREFIX },
    );
  },
);

/** The forwarded request's own URL, which the docs application routes on. */
const ORIGINAL_URL = 'x-cipgate-docs-url';

/** Headers of the connection the injected answer came on, not of the answer. */
const HOP_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date']);

async function buildDocsApp(opts: {
  version: string;
  operationIds: ReadonlyMap<string, string>;
  priceOf: (route: { method: HTTPMethods | HTTPMethods[]; url: string }) => number | undefined;
  routes: readonly RouteOptions[];
}): Promise<FastifyInstance> {
  const [{ default: Fastify }, { default: swagger }, { default: swaggerUi }] = await Promise.all([
    import('fastify'),
    import('@fastify/swagger'),
    import('@fastify/swagger-ui'),
  ]);
  const docs = Fastify({
    rewriteUrl: (request) => {
      const url = request.headers[ORIGINAL_URL];
      return typeof url === 'string' ? url : (request.url ?? '/');
    },
  });
  // The recorded routes are here only to be described: nothing validates or serialises with their schemas.
  docs.setValidatorCompiler(() => () => true);
  docs.setSerializerCompiler(() => (data) => JSON.stringify(data));
  const mark = (reply: FastifyReply, outcome: Outcome) => {
    (reply.raw as unknown as Record<symbol, Outcome>)[OUTCOME] = outcome;
    return reply.code(500).send();
  };
  docs.setNotFoundHandler((_request, reply) => mark(reply, { notFound: true }));
  docs.setErrorHandler((error, _request, reply) => mark(reply, { error }));
  await docs.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'cipgate',
        version: opts.version,
        description:
          'Credit-metered identity and bridge API. Partner paths need an `x-api-key`; `x-credits` on each ' +
          'operation is its price in credits per answered call (errors are free). The same operations are ' +
          'served by GraphQL at `/graphql`.',
      },
      servers: [{ url: '/', description: 'This server' }],
      tags: [
        { name: 'partner', description: 'Partner interface: needs an `x-api-key`; paid operations say their price.' },
        { name: 'public', description: 'Public interface: keyless, free, cacheable name ⇄ address lookups.' },
      ],
      components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } } },
    },
    transform: ({ schema, url, route }) => {
      const method = Array.isArray(route.method) ? route.method[0] : route.method;
      const surface = surfaceOf(url);
      const price = opts.priceOf({ method: route.method, url });
      if (price === undefined) return { schema: { ...schema, hide: true } as FastifySchema, url };
      const errorSchema = surface === 'partner' ? partnerErrorSchema : publicErrorSchema;
      const response = (schema?.response ?? {}) as Record<string, Record<string, unknown>>;
      const answered = { ...COMMON_HEADERS, ...(surface === 'partner' ? CREDIT_HEADERS : {}) };
      const withHeaders = (body: Record<string, unknown>, headers: Record<string, unknown>) => ({ ...body, headers });
      const documentedResponse: Record<string, unknown> = {
        '4xx': withHeaders({ ...errorSchema, description: 'Bad input or a refusal; free.' }, COMMON_HEADERS),
        429: withHeaders(
          { ...errorSchema, description: 'Rate limited; free.' },
          { ...COMMON_HEADERS, 'retry-after': header('Seconds until the window resets.', 'integer') },
        ),
        '5xx': withHeaders({ ...errorSchema, description: 'Failure or a backing service unavailable; free.' }, {}),
      };
      for (const [status, body] of Object.entries(response)) {
        documentedResponse[status] = /^2/.test(status)
          ? withHeaders(body, { ...answered, etag: header('Entity tag of a free answer.') })
          : body;
      }
      // Free GET answers carry an ETag; the same request with If-None-Match answers 304 without a body.
      if (method === 'GET' && price === 0) {
        documentedResponse[304] = { type: 'null', description: 'Not Modified: `If-None-Match` matched the ETag.' };
      }
      return {
        url,
        schema: {
          ...schema,
          operationId: opts.operationIds.get(`${method} ${url}`),
          summary: schema?.summary ?? `${method} ${url}`,
          tags: [surface === 'partner' ? 'partner' : 'public'],
          ...(surface === 'partner' ? { security: [{ apiKey: [] }] } : {}),
          response: documentedResponse,
          'x-credits': price,
        } as FastifySchema,
      };
    },
  });
  await docs.register(swaggerUi, UI_OPTIONS);
  for (const route of opts.routes) {
    docs.route({ method: route.method, url: route.url, schema: route.schema, config: route.config, handler() {} });
  }
  await docs.ready();
  return docs;
}
