import type { Request } from 'autocannon';
import { expired, label, ownerOf } from './dataset.js';

/** One measured request mix, sent identically to the service and to the baseline. */
export interface Scenario {
  id: string;
  title: string;
  requests: Request[];
  connections: number;
  /** Charges a credit per answer: the run checks that usage grew by exactly the answers counted. */
  paid: boolean;
  /** Minimum throughput ratio to the baseline the issue sets, when it sets one. */
  target?: number;
}

const JSON_HEADERS = { 'content-type': 'application/json' };

/** Names spread over the whole registry (a stride co-prime with any size), skipping expired ones. */
function liveIndexes(size: number, count: number, seed: number): number[] {
  const out: number[] = [];
  for (let k = 0; out.length < count; k++) {
    const i = (seed + k * 7919) % size;
    if (!expired(i)) out.push(i);
  }
  return out;
}

/** Search prefixes that each match ten names (u000123 → u0001230…u0001239) at every registry size. */
export function searchQueries(size: number, count: number): string[] {
  const groups = Math.floor(Math.min(size, 10_000) / 10);
  return Array.from({ length: count }, (_, k) => label(((k * 37 + 11) % groups) * 10).slice(0, -1));
}

export const PRIMARY_NAME = /* GraphQL */ `query PrimaryName($address: String!, $caip2Id: String!) {
  primaryName(address: $address, caip2Id: $caip2Id) { name owner }
}`;
export const PRIMARY_NAMES = /* GraphQL */ `query PrimaryNames($addresses: [String!]!, $caip2Id: String) {
  primaryNames(addresses: $addresses, caip2Id: $caip2Id) { address name owner }
}`;
export const IDENTITY_SEARCH = /* GraphQL */ `query IdentitySearch($query: String!, $page: Int!, $perPage: Int!) {
  identitySearch(query: $query, page: $page, perPage: $perPage) {
    results {
      name ownerAddress source provider providerName caip2Id avatar logoURI url expireAt registeredAt
      multichainAddresses { address caip2Id chainName symbol }
      txtRecords { key value type }
    }
    pagination { page perPage total totalPages }
  }
}`;

/** A GraphQL request for autocannon. */
export const gql = (
  operationName: string,
  query: string,
  variables: Record<string, unknown>,
  headers: Record<string, string> = {},
): Request => ({
  method: 'POST',
  path: '/graphql',
  headers: { ...JSON_HEADERS, ...headers },
  body: JSON.stringify({ operationName, query, variables }),
});

export function batchBody(size: number, count: number, seed: number): string {
  return JSON.stringify({ caip2Id: 'move-mvmt:126', addresses: liveIndexes(size, count, seed).map(ownerOf) });
}

export function batchRequests(size: number, count: number, variants: number): Request[] {
  return Array.from({ length: variants }, (_, v) => ({
    method: 'POST' as const,
    path: '/api/public/identity/names',
    headers: JSON_HEADERS,
    body: batchBody(size, count, v * 101 + 3),
  }));
}

export function searchRequests(size: number, apiKey: string, variants: number): Request[] {
  return searchQueries(size, variants).map((q) => ({
    method: 'GET' as const,
    path: `/partners/cip/identity/search?query=${q}`,
    headers: { 'x-api-key': apiKey },
  }));
}

/** The scenario list for a registry of `size` names. */
export function scenarios(size: number, apiKey: string, connections: number): Scenario[] {
  const key = { 'x-api-key': apiKey };
  const addresses = liveIndexes(size, 200, 13).map(ownerOf);
  const batch1000 = liveIndexes(size, 1000, 29).map(ownerOf);
  return [
    {
      id: 'public-name',
      title: 'GET /api/public/identity/name',
      connections,
      paid: false,
      target: 0.5,
      requests: addresses.map((a) => ({
        method: 'GET',
        path: `/api/public/identity/name?address=${a}&caip2Id=move-mvmt:126`,
      })),
    },
    {
      id: 'public-names-1',
      title: 'POST /api/public/identity/names (1 address)',
      connections,
      paid: false,
      requests: batchRequests(size, 1, 50),
    },
    {
      id: 'public-names-100',
      title: 'POST /api/public/identity/names (100 addresses)',
      connections,
      paid: false,
      requests: batchRequests(size, 100, 20),
    },
    {
      id: 'public-names-1000',
      title: 'POST /api/public/identity/names (1000 addresses)',
      connections,
      paid: false,
      target: 0.8,
      requests: batchRequests(size, 1000, 8),
    },
    {
      id: 'partner-stats',
      title: 'GET /partners/stats',
      connections,
      paid: false,
      target: 0.4,
      requests: [{ method: 'GET', path: '/partners/stats', headers: key }],
    },
    {
      id: 'partner-search',
      title: `GET /partners/cip/identity/search (${size.toLocaleString('en')} names)`,
      connections,
      paid: true,
      target: 0.4,
      requests: searchRequests(size, apiKey, 50),
    },
    {
      id: 'graphql-name',
      title: 'GraphQL primaryName',
      connections,
      paid: false,
      target: 0.5,
      requests: addresses.map((a) => gql('PrimaryName', PRIMARY_NAME, { address: a, caip2Id: 'move-mvmt:126' })),
    },
    {
      id: 'graphql-names-1000',
      title: 'GraphQL primaryNames (1000 addresses)',
      connections,
      paid: false,
      target: 0.8,
      requests: [gql('PrimaryNames', PRIMARY_NAMES, { addresses: batch1000, caip2Id: 'move-mvmt:126' })],
    },
    {
      id: 'graphql-search',
      title: 'GraphQL identitySearch',
      connections,
      paid: true,
      target: 0.4,
      requests: searchQueries(size, 50).map((q) =>
        gql('IdentitySearch', IDENTITY_SEARCH, { query: q, page: 1, perPage: 10 }, key),
      ),
    },
    {
      id: 'credit-contention',
      title: `Paid search, ${connections * 4} connections on one key`,
      connections: connections * 4,
      paid: true,
      target: 0.4,
      requests: searchRequests(size, apiKey, 50),
    },
  ];
}
