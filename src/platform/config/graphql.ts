import type { Reader } from './values.js';

export interface GraphqlSettings {
  /** Introspection and the Apollo Sandbox landing page on /graphql. */
  graphqlExplorer: boolean;
  /** Bounds on one GraphQL operation's work, checked before it is planned (src/platform/graphql/limits.ts). */
  graphqlLimits: {
    maxTokens: number;
    maxDepth: number;
    maxAliases: number;
    maxRootFields: number;
    maxCost: number;
    /** Elements assumed for a list field whose size no argument tells. */
    costListSize: number;
    /** Operations in one batched POST (a JSON array), each checked and charged as its own request. */
    maxBatch: number;
  };
}

export function graphqlSection(read: Reader): GraphqlSettings {
  return {
    graphqlExplorer: read.bool('GRAPHQL_EXPLORER', true),
    graphqlLimits: {
      maxTokens: read.int('GRAPHQL_MAX_TOKENS', 5000, 100, 1_000_000),
      maxDepth: read.int('GRAPHQL_MAX_DEPTH', 24, 2, 1000),
      maxAliases: read.int('GRAPHQL_MAX_ALIASES', 50, 0, 100_000),
      maxRootFields: read.int('GRAPHQL_MAX_ROOT_FIELDS', 20, 1, 100_000),
      maxCost: read.int('GRAPHQL_MAX_COST', 10_000, 1, 100_000_000),
      costListSize: read.int('GRAPHQL_COST_LIST_SIZE', 10, 1, 100_000),
      maxBatch: read.int('GRAPHQL_MAX_BATCH', 10, 1, 100),
    },
  };
}
