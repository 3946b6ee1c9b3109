import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Middleware } from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ETH_TO_BASE } from '../../../src/features/bridge/bridge.test-helper.js';
import { importNames } from '../../../src/features/resolution/index.js';
import { startTestApp, type TestApp } from '../../../test/support/app.js';
import {
  answerMeta,
  BridgeQuoteDocument,
  type CipgateClient,
  createCipgateClient,
  IdentitySearchDocument,
  NameOwnerDocument,
  NamingProvidersDocument,
  PrimaryNameDocument,
  StatsDocument,
} from '../src/index.js';

/**
 * The generated client against a real server started here (listening on a port; the same test runs on
 * SQLite and on PostgreSQL): every operation of /openapi.json is called, and every answer, errors
 * included, is validated against the document's schema for its status.
 */

type OpenApi = {
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
};

const OWNER = `0x${'a1'.repeat(32)}`;
const ALICE = { name: 'clientalice.snow', caip2Id: 'move-mvmt:126', owner: OWNER, primary: true };

describe('@cipgate/client against a running server', () => {
  let app: TestApp;
  let baseUrl: string;
  let doc: OpenApi;
  let receiver: Server;
  let receiverUrl: string;
  let partner: CipgateClient;
  let keyless: CipgateClient;
  const called = new Set<string>();
  const invalid: string[] = [];

  /** Validates every answer against the document, and notes which operation it was. */
  const validator = (): Middleware => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    let added = false;
    return {
      async onResponse({ schemaPath, request, response }) {
        if (!added) {
          ajv.addSchema(doc as object, 'openapi');
          added = true;
        }
        const method = request.method.toLowerCase();
        const operation = doc.paths[schemaPath]?.[method];
        if (!operation) {
          invalid.push(`${method} ${schemaPath}: not in the document`);
          return;
        }
        called.add(operation.operationId);
        const status = String(response.status);
        const key = [status, `${status[0]}XX`, 'default'].find((k) => k in operation.responses);
        if (!key) {
          invalid.push(`${operation.operationId} ${status}: status not documented`);
          return;
        }
        if (response.status === 304) return;
        const pointer = ['paths', schemaPath, method, 'responses', key, 'content', 'application/json', 'schema']
          .map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1'))
          .join('/');
        const validate = ajv.getSchema(`openapi#/${pointer}`);
        if (!validate) {
          invalid.push(`${operation.operationId} ${status}: no JSON schema`);
          return;
        }
        const body = await response.clone().json();
        if (!validate(body)) {
          invalid.push(
            `${operation.operationId} ${status}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(body)}`,
          );
        }
      },
    };
  };

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    app = await startTestApp({ WEBHOOK_ALLOW_HTTP_LOOPBACK: 'true' });
    await app.http.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}`;
    expect((await importNames(app.services.db, [JSON.stringify(ALICE)])).errors).toEqual([]);
    doc = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as OpenApi;
    const { apiKey } = await app.partner(100, 'Client Partner', { sandbox: true });
    partner = createCipgateClient({ baseUrl, apiKey });
    keyless = createCipgateClient({ baseUrl: `${baseUrl}/` });
    partner.rest.use(validator());
    keyless.rest.use(validator());
  });
  afterAll(async () => {
    await app?.stop();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it('calls every partner operation, typed, and each answer matches the document', async () => {
    const stats = await partner.rest.GET('/partners/stats');
    expect(stats.data?.creditBalance).toBe(100);
    const usage = await partner.rest.GET('/partners/usage', { params: { query: { granularity: 'day' } } });
    expect(usage.response.status).toBe(200);
    const keys = await partner.rest.GET('/partners/keys');
    expect(keys.data?.keys.length).toBe(1);

    const chains = await partner.rest.GET('/partners/bridge/chains');
    expect(chains.data?.chains.length).toBeGreaterThan(0);
    expect(answerMeta(chains.response)).toMatchObject({ creditsCharged: 1, creditsRemaining: 99 });
    const tokens = await partner.rest.GET('/partners/bridge/tokens', { params: { query: { caip2Id: 'eip155:1' } } });
    expect(tokens.data?.tokens[0]?.decimals).toBe(18);
    const quote = await partner.rest.GET('/partners/bridge/quote', {
      params: { query: { ...ETH_TO_BASE, order: 'FASTEST', maxRoutes: 2 } },
    });
    const route = quote.data?.routes[0];
    expect(route?.bridgeProvider).toBe('sandbox');
    const status = await partner.rest.GET('/partners/bridge/status', {
      params: { query: { txHash: `0x${'4d'.repeat(32)}`, routeId: route?.id } },
    });
    expect(status.data?.status).toBe('PENDING');

    const search = await partner.rest.GET('/partners/cip/identity/search', {
      params: { query: { query: 'clientalice', perPage: 5 } },
    });
    expect(search.data?.results[0]).toMatchObject({ name: 'clientalice.snow', ownerAddress: OWNER });

    const hook = await partner.rest.POST('/partners/webhooks', { body: { url: receiverUrl } });
    const id = hook.data?.id as string;
    expect(id).toBeTruthy();
    expect((await partner.rest.GET('/partners/webhooks')).data?.webhooks.map((w) => w.id)).toEqual([id]);
    const test = await partner.rest.POST('/partners/webhooks/{id}/test', { params: { path: { id } } });
    expect(test.response.status).toBe(200);
    const deliveries = await partner.rest.GET('/partners/webhooks/{id}/deliveries', {
      params: { path: { id }, query: { limit: 5 } },
    });
    expect(deliveries.response.status).toBe(200);
    const deleted = await partner.rest.DELETE('/partners/webhooks/{id}', { params: { path: { id } } });
    expect(deleted.response.status).toBe(200);

    expect(invalid).toEqual([]);
  });

  it('calls every public operation, aliases included, without a key', async () => {
    const caip2Id = ALICE.caip2Id;
    for (const path of ['/api/public/identity/address', '/api/public/public-identity/address'] as const) {
      const { data } = await keyless.rest.GET(path, { params: { query: { name: 'clientalice', caip2Id } } });
      expect(data).toMatchObject({ owner: OWNER });
    }
    for (const path of ['/api/public/identity/name', '/api/public/public-identity/name'] as const) {
      const { data } = await keyless.rest.GET(path, { params: { query: { address: OWNER, caip2Id } } });
      expect(data).toMatchObject({ name: 'clientalice.snow' });
    }
    for (const path of ['/api/public/identity/names', '/api/public/public-identity/names'] as const) {
      const { response } = await keyless.rest.POST(path, { body: { addresses: [OWNER], caip2Id } });
      expect(response.status).toBe(200);
    }
    for (const path of ['/api/public/identity/addresses', '/api/public/public-identity/addresses'] as const) {
      const { response } = await keyless.rest.POST(path, { body: { caip2Id, names: ['clientalice', 'nobody'] } });
      expect(response.status).toBe(200);
    }
    for (const path of [
      '/api/public/identity/metadata/{name}',
      '/api/public/public-identity/metadata/{name}',
    ] as const) {
      const { response } = await keyless.rest.GET(path, { params: { path: { name: 'clientalice.snow' } } });
      expect(response.status).toBe(200);
    }
    expect(invalid).toEqual([]);
  });

  it('answers errors in the documented shapes: unknown name, bad input, no key, unknown parameter', async () => {
    const missing = await keyless.rest.GET('/api/public/identity/address', {
      params: { query: { name: 'nobody-here', caip2Id: 'move-mvmt:126' } },
    });
    expect(missing.response.status).toBe(404);
    const bad = await keyless.rest.GET('/api/public/identity/name', {
      params: { query: { address: 'not-an-address', caip2Id: 'move-mvmt:126' } },
    });
    expect(bad.response.status).toBe(400);
    const noKey = await keyless.rest.GET('/partners/stats');
    expect(noKey.response.status).toBe(401);
    expect(noKey.error).toMatchObject({ statusCode: 401 });
    const misspelt = await partner.rest.GET('/partners/cip/identity/search', {
      params: { query: { query: 'alice', per_page: 5 } as never },
    });
    expect(misspelt.response.status).toBe(400);
    expect(answerMeta(misspelt.response).creditsCharged).toBeNull();
    expect(invalid).toEqual([]);
  });

  it('has called every operation the document lists', () => {
    const all = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId));
    expect([...called].sort()).toEqual([...new Set(all)].sort());
  });

  it('runs the typed GraphQL documents: free fields without a key, paid ones charged', async () => {
    const owner = await keyless.graphql(NameOwnerDocument, { caip2Id: 'move-mvmt:126', name: 'clientalice' });
    expect(owner.data?.nameOwner?.owner).toBe(OWNER);
    const primary = await keyless.graphql(PrimaryNameDocument, { caip2Id: 'move-mvmt:126', address: OWNER });
    expect(primary.data?.primaryName?.name).toBe('clientalice.snow');
    const providers = await keyless.graphql(NamingProvidersDocument);
    expect(providers.data?.namingProviders.find((p) => p.provider === 'mns')?.enabled).toBe(true);

    const before = (await partner.graphql(StatsDocument)).data?.stats.creditBalance as number;
    const search = await partner.graphql(IdentitySearchDocument, { query: 'clientalice' });
    expect(search.errors).toBeUndefined();
    expect(search.data?.identitySearch.results[0]?.name).toBe('clientalice.snow');
    expect(search.extensions?.credits?.charged).toBe(1);
    const quote = await partner.graphql(BridgeQuoteDocument, { input: ETH_TO_BASE });
    expect(quote.data?.bridgeQuote[0]?.transactionData.chainId).toBe(1);
    expect(answerMeta(quote.response).creditsCharged).toBe(2);
    const after = (await partner.graphql(StatsDocument)).data?.stats.creditBalance as number;
    expect(before - after).toBe(3);

    const refused = await keyless.graphql(StatsDocument);
    expect(refused.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});
