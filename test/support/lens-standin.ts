import { buildSchema, graphql } from 'graphql';
import { type FixtureAccount, LENS_ACCOUNTS, LENS_SCHEMA } from '../fixtures/lens/accounts.js';
import { type Standin, startStandin } from './http-standin.js';

/**
 * The Lens v3 GraphQL API on loopback: `POST /graphql` executed against the documented part of the
 * schema (`test/fixtures/lens/accounts.ts`) over the fixture accounts, so a query with a field or
 * argument the API does not have fails here as it would there (`{"errors": [...]}`, HTTP 200).
 */
export interface LensStandin extends Standin {
  readonly graphqlUrl: string;
}

const same = (a: string | undefined, b: string) => a !== undefined && a.toLowerCase() === b.toLowerCase();

export async function startLensStandin(accounts: FixtureAccount[] = LENS_ACCOUNTS): Promise<LensStandin> {
  const schema = buildSchema(LENS_SCHEMA);
  const root = {
    account({ request }: { request: { address?: string; username?: { localName: string } } }) {
      if (request.username) return accounts.find((a) => a.username?.localName === request.username?.localName) ?? null;
      if (request.address) return accounts.find((a) => same(request.address, a.address)) ?? null;
      return null;
    },
    accountsAvailable({ request }: { request: { managedBy: string; includeOwned?: boolean } }) {
      const items = accounts.flatMap((account) => {
        if (request.includeOwned && same(request.managedBy, account.owner)) {
          return [{ __typename: 'AccountOwned', addedAt: account.createdAt, account }];
        }
        if (account.managers.some((m) => same(request.managedBy, m))) {
          return [{ __typename: 'AccountManaged', addedAt: account.createdAt, account }];
        }
        return [];
      });
      return { items, pageInfo: { prev: null, next: null } };
    },
  };
  const standin = await startStandin();
  standin.reply('/graphql', async ({ method, body }) => {
    if (method !== 'POST') return { status: 405, json: { errors: [{ message: 'POST only' }] } };
    const { query, variables } = (body ?? {}) as { query?: string; variables?: Record<string, unknown> };
    const result = await graphql({ schema, source: query ?? '', rootValue: root, variableValues: variables });
    return { json: result };
  });
  return Object.assign(standin, { graphqlUrl: `${standin.url}/graphql` });
}
