/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
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

/** Length of one usage period (UTC). */
export type UsageGranularity =
  | 'day'
  | 'hour';

export type PartnerKeysQueryVariables = Exact<{ [key: string]: never; }>;


export type PartnerKeysQuery = { apiKeys: Array<{ prefix: string, label: string | null, createdAt: string, lastUsedAt: string | null, revokedAt: string | null }> };

export type PartnerStatsQueryVariables = Exact<{ [key: string]: never; }>;


export type PartnerStatsQuery = { stats: { email: string, name: string, creditBalance: number, creditUsage: number } };

export type PartnerUsageQueryVariables = Exact<{
  from?: string | null | undefined;
  to?: string | null | undefined;
  granularity?: UsageGranularity | null | undefined;
}>;


export type PartnerUsageQuery = { usage: { from: string, to: string, granularity: UsageGranularity, totalCredits: number, periods: Array<{ period: string, operation: string, credits: number, calls: number }> } };

export type BridgeChainsQueryVariables = Exact<{ [key: string]: never; }>;


export type BridgeChainsQuery = { bridgeChains: Array<{ caip2Id: string, name: string, nativeToken: string, logoURI: string, isBridgeSupported: boolean }> };

export type BridgeQuoteQueryVariables = Exact<{
  input: BridgeQuoteInput;
}>;


export type BridgeQuoteQuery = { bridgeQuote: Array<{ id: string, fromChain: string, toChain: string, fromToken: string, toToken: string, fromAmount: string, toAmount: string, toAmountMin: string, gasCostUSD: string, feeCostUSD: string, fromAmountUSD: string, toAmountUSD: string, bridgeProvider: string, aggregator: string, estimatedTimeSeconds: number, expiresAt: number, approvalAddress: string | null, serializedTransaction: string | null, transactionData: { from: string, to: string, data: string, value: string, gasLimit: string, gasPrice: string, chainId: number }, approvalTransaction: { from: string, to: string, data: string, value: string, gasLimit: string, gasPrice: string, chainId: number } | null }> };

export type BridgeStatusQueryVariables = Exact<{
  txHash: string;
  bridge?: string | null | undefined;
  routeId?: string | number | null | undefined;
}>;


export type BridgeStatusQuery = { bridgeStatus: { status: string, bridge: string, aggregator: string | null, substatus: string | null, substatusMessage: string | null, progress: number, message: string, fromTx: { txHash: string, txLink: string, chainId: number, gasUsed: string, gasPrice: string, timestamp: number }, toTx: { txHash: string, txLink: string, chainId: number, gasUsed: string, gasPrice: string, timestamp: number } | null } };

export type BridgeTokensQueryVariables = Exact<{
  caip2Id: string;
}>;


export type BridgeTokensQuery = { bridgeTokens: { caip2Id: string, tokens: Array<{ address: string, symbol: string, name: string, decimals: number, logoURI: string, priceUSD: string | null }> } };

export type DeleteWebhookMutationVariables = Exact<{
  id: string | number;
}>;


export type DeleteWebhookMutation = { deleteWebhook: { id: string, url: string, createdAt: string } };

export type WebhookDeliveriesQueryVariables = Exact<{
  id: string | number;
  limit?: number | null | undefined;
}>;


export type WebhookDeliveriesQuery = { webhookDeliveries: Array<{ id: string, txHash: string, sequence: number, state: string, attempts: number, lastStatusCode: number | null, lastError: string | null, nextAttemptAt: string | null, deliveredAt: string | null, createdAt: string }> };

export type WebhooksQueryVariables = Exact<{ [key: string]: never; }>;


export type WebhooksQuery = { webhooks: Array<{ id: string, url: string, createdAt: string }> };

export type RegisterWebhookMutationVariables = Exact<{
  url: string;
}>;


export type RegisterWebhookMutation = { registerWebhook: { id: string, url: string, createdAt: string, secret: string } };

export type TestWebhookMutationVariables = Exact<{
  id: string | number;
}>;


export type TestWebhookMutation = { testWebhook: { delivered: boolean, statusCode: number | null, error: string | null, sentAt: string } };

export type IdentitySearchQueryVariables = Exact<{
  query: string;
  page: number;
  perPage: number;
}>;


export type IdentitySearchQuery = { identitySearch: { results: Array<{ name: string, ownerAddress: string | null, source: string, provider: string, providerName: string, caip2Id: string, avatar: string | null, logoURI: string, url: string, expireAt: string | null, registeredAt: string | null, multichainAddresses: Array<{ address: string, caip2Id: string, chainName: string | null, symbol: string | null }>, txtRecords: Array<{ key: string, value: string, type: string }> }>, pagination: { page: number, perPage: number, total: number, totalIsExact: boolean, totalPages: number } } };

export type PublicIdentityAddressQueryVariables = Exact<{
  name: string;
  caip2Id: string;
}>;


export type PublicIdentityAddressQuery = { nameOwner: { owner: string, resolverAddress: string | null, caip2Id: string, subIdentities: Array<{ name: string, address: string }> } | null };

export type PublicIdentityAddressesQueryVariables = Exact<{
  caip2Id: string;
  names: Array<string> | string;
}>;


export type PublicIdentityAddressesQuery = { nameOwners: Array<{ owner: string, resolverAddress: string | null } | null> };

export type PublicIdentityMetadataQueryVariables = Exact<{
  name: string;
}>;


export type PublicIdentityMetadataQuery = { nameMetadata: { metadata: Array<{ key: string, value: string }> } | null };

export type PublicIdentityNameQueryVariables = Exact<{
  address: string;
  caip2Id: string;
}>;


export type PublicIdentityNameQuery = { primaryName: { name: string, owner: string } | null };

export type PublicIdentityNamesQueryVariables = Exact<{
  addresses: Array<string> | string;
  caip2Id?: string | null | undefined;
}>;


export type PublicIdentityNamesQuery = { primaryNames: Array<{ address: string, name: string, owner: string }> };
