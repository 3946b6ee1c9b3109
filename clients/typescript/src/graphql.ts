/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
/** A quote request; the same parameters as GET /partners/bridge/quote. */
export type BridgeQuoteInput = {
  /** Comma list of bridge names a route may use (e.g. "across,stargatev2"); default: any. */
  allowBridges?: string | null | undefined;
  /** Comma list of bridge names a route must not use. */
  denyBridges?: string | null | undefined;
  /** Source wallet address. */
  fromAddress: string;
  /** Amount in the source token's smallest unit, a decimal integer string. */
  fromAmount: string;
  /** Source CAIP-2 id. */
  fromChain: string;
  /** Source token address. */
  fromToken: string;
  /** Most routes answered, 1 to 20; default 5. */
  maxRoutes?: number | null | undefined;
  /** CHEAPEST (default: most received net of costs first) or FASTEST (shortest estimated time first). */
  order?: string | null | undefined;
  /** Tolerance as a fraction in (0, 0.5]; default 0.03. */
  slippage?: number | null | undefined;
  /** Destination wallet; defaults to fromAddress when both chains share an address format. */
  toAddress?: string | null | undefined;
  /** Destination CAIP-2 id. */
  toChain: string;
  /** Destination token address. */
  toToken: string;
};

export type PrimaryNameQueryVariables = Exact<{
  caip2Id: string;
  address: string;
}>;


export type PrimaryNameQuery = { primaryName: { name: string, address: string, owner: string } | null };

export type NameOwnerQueryVariables = Exact<{
  caip2Id: string;
  name: string;
}>;


export type NameOwnerQuery = { nameOwner: { name: string, owner: string, resolverAddress: string | null } | null };

export type NamingProvidersQueryVariables = Exact<{ [key: string]: never; }>;


export type NamingProvidersQuery = { namingProviders: Array<{ provider: string, enabled: boolean, reason: string | null }> };

export type StatsQueryVariables = Exact<{ [key: string]: never; }>;


export type StatsQuery = { stats: { creditBalance: number, creditUsage: number } };

export type IdentitySearchQueryVariables = Exact<{
  query: string;
  page?: number;
  perPage?: number;
}>;


export type IdentitySearchQuery = { identitySearch: { unavailableProviders: Array<string>, results: Array<{ name: string, source: string, provider: string, ownerAddress: string | null, expireAt: string | null }>, pagination: { total: number, totalIsExact: boolean, page: number, perPage: number } } };

export type BridgeQuoteQueryVariables = Exact<{
  input: BridgeQuoteInput;
}>;


export type BridgeQuoteQuery = { bridgeQuote: Array<{ id: string, bridgeProvider: string, fromAmount: string, toAmount: string, toAmountMin: string, estimatedTimeSeconds: number, transactionData: { from: string, to: string, data: string, value: string, chainId: number } }> };

export type BridgeStatusQueryVariables = Exact<{
  txHash: string;
  routeId?: string | number | null | undefined;
}>;


export type BridgeStatusQuery = { bridgeStatus: { status: string, substatus: string | null, bridge: string, progress: number, message: string } };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}

export const PrimaryNameDocument = new TypedDocumentString(`
    query PrimaryName($caip2Id: String!, $address: String!) {
  primaryName(caip2Id: $caip2Id, address: $address) {
    name
    address
    owner
  }
}
    `) as unknown as TypedDocumentString<PrimaryNameQuery, PrimaryNameQueryVariables>;
export const NameOwnerDocument = new TypedDocumentString(`
    query NameOwner($caip2Id: String!, $name: String!) {
  nameOwner(caip2Id: $caip2Id, name: $name) {
    name
    owner
    resolverAddress
  }
}
    `) as unknown as TypedDocumentString<NameOwnerQuery, NameOwnerQueryVariables>;
export const NamingProvidersDocument = new TypedDocumentString(`
    query NamingProviders {
  namingProviders {
    provider
    enabled
    reason
  }
}
    `) as unknown as TypedDocumentString<NamingProvidersQuery, NamingProvidersQueryVariables>;
export const StatsDocument = new TypedDocumentString(`
    query Stats {
  stats {
    creditBalance
    creditUsage
  }
}
    `) as unknown as TypedDocumentString<StatsQuery, StatsQueryVariables>;
export const IdentitySearchDocument = new TypedDocumentString(`
    query IdentitySearch($query: String!, $page: Int! = 1, $perPage: Int! = 10) {
  identitySearch(query: $query, page: $page, perPage: $perPage) {
    results {
      name
      source
      provider
      ownerAddress
      expireAt
    }
    pagination {
      total
      totalIsExact
      page
      perPage
    }
    unavailableProviders
  }
}
    `) as unknown as TypedDocumentString<IdentitySearchQuery, IdentitySearchQueryVariables>;
export const BridgeQuoteDocument = new TypedDocumentString(`
    query BridgeQuote($input: BridgeQuoteInput!) {
  bridgeQuote(input: $input) {
    id
    bridgeProvider
    fromAmount
    toAmount
    toAmountMin
    estimatedTimeSeconds
    transactionData {
      from
      to
      data
      value
      chainId
    }
  }
}
    `) as unknown as TypedDocumentString<BridgeQuoteQuery, BridgeQuoteQueryVariables>;
export const BridgeStatusDocument = new TypedDocumentString(`
    query BridgeStatus($txHash: String!, $routeId: ID) {
  bridgeStatus(txHash: $txHash, routeId: $routeId) {
    status
    substatus
    bridge
    progress
    message
  }
}
    `) as unknown as TypedDocumentString<BridgeStatusQuery, BridgeStatusQueryVariables>;