import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { ApolloClient, gql, HttpLink, InMemoryCache } from '@apollo/client/core';
import { BatchHttpLink } from '@apollo/client/link/batch-http';
import { createPersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { beforeAll, describe, expect, it } from 'vitest';
import { partnerBooks } from '../../../test/support/app.js';
import { withMetered } from '../../../test/support/paid-subgraph.js';
import { useTestApp } from '../../../test/support/use-app.js';

/** Apollo Client, as a frontend uses it, against a listening server: batched and persisted queries. */
describe('Apollo Client links', () => {
  const app = useTestApp({}, { subgraphs: withMetered() });
  let uri: string;
  beforeAll(async () => {
    await app.http.listen({ port: 0, host: '127.0.0.1' });
    uri = `http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}/graphql`;
  });

  const books = (id: string) => partnerBooks(app, id);

  it('BatchHttpLink: queries sent together in one request, each answered and charged once', async () => {
    const { id, apiKey } = await app.partner(10);
    const bodies: unknown[] = [];
    const link = new BatchHttpLink({
      uri,
      headers: { 'x-api-key': apiKey },
      batchMax: 5,
      batchInterval: 20,
      fetch: async (input, init) => {
        bodies.push(JSON.parse(String(init?.body)));
        return fetch(input, init);
      },
    });
    const client = new ApolloClient({ link, cache: new InMemoryCache() });
    const [a, b, c] = await Promise.all([
      client.query({ query: gql`query A { meteredEcho(text: "a") }` }),
      client.query({ query: gql`query B { meteredEcho(text: "b") }` }),
      client.query({ query: gql`query Two { meteredTwo }` }),
    ]);
    expect([a.data, b.data, c.data]).toEqual([{ meteredEcho: 'a' }, { meteredEcho: 'b' }, { meteredTwo: 2 }]);
    // One HTTP request carried the three operations.
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toHaveLength(3);
    expect(await books(id)).toEqual({ balance: 6, usage: 4 });
  });

  it('PersistedQueryLink: a hash first, the query once asked for, then the hash alone', async () => {
    const { id, apiKey } = await app.partner(10);
    const sent: { hash?: string; query: boolean }[] = [];
    const http = new HttpLink({
      uri,
      headers: { 'x-api-key': apiKey },
      fetch: async (input, init) => {
        const body = JSON.parse(String(init?.body));
        sent.push({ hash: body.extensions?.persistedQuery?.sha256Hash, query: typeof body.query === 'string' });
        return fetch(input, init);
      },
    });
    const persisted = createPersistedQueryLink({
      sha256: (text: string) => createHash('sha256').update(text).digest('hex'),
    });
    const query = gql`query Echo($t: String!) { meteredEcho(text: $t) }`;
    const first = new ApolloClient({ link: persisted.concat(http), cache: new InMemoryCache() });
    expect((await first.query({ query, variables: { t: 'x' } })).data).toEqual({ meteredEcho: 'x' });
    const second = new ApolloClient({ link: persisted.concat(http), cache: new InMemoryCache() });
    expect((await second.query({ query, variables: { t: 'y' } })).data).toEqual({ meteredEcho: 'y' });
    // Unknown hash, then hash with the query, then (registered) the hash alone.
    expect(sent.map((s) => s.query)).toEqual([false, true, false]);
    expect(new Set(sent.map((s) => s.hash)).size).toBe(1);
    // Only the two answered operations were charged.
    expect(await books(id)).toEqual({ balance: 8, usage: 2 });
  });
});
