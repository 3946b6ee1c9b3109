import { GraphQLSafeInt } from 'graphql-scalars';
import { Directive, Field, Float, InputType, Int, ObjectType } from 'type-graphql';
import type { BridgeStatusValue } from './providers/types.js';

/** Amounts are decimal strings of base units: token amounts overflow every GraphQL number type. */
@ObjectType({ description: 'A chain the bridge knows, by CAIP-2 id. Other subgraphs reference it by `caip2Id`.' })
@Directive('@key(fields: "caip2Id")')
export class Chain {
  @Field({ description: 'CAIP-2 id, e.g. `eip155:1`.' })
  caip2Id!: string;

  @Field({ description: 'Chain name.' })
  name!: string;

  @Field({ description: 'Symbol of the native token.' })
  nativeToken!: string;

  @Field({ description: 'Logo URL.' })
  logoURI!: string;

  @Field({ description: 'Whether an enabled bridge provider bridges this chain.' })
  isBridgeSupported!: boolean;
}

@ObjectType({ description: 'A token of a chain.' })
export class Token {
  @Field({
    description: 'Token contract address; the native token is the zero address on EVM chains, 32 `1`s on Solana.',
  })
  address!: string;

  @Field()
  symbol!: string;

  @Field()
  name!: string;

  @Field(() => GraphQLSafeInt, { description: 'Decimals of the token.' })
  decimals!: number;

  @Field({ description: 'Logo URL; empty when unknown.' })
  logoURI!: string;

  @Field(() => String, {
    nullable: true,
    description: 'USD price as a decimal string from a live upstream; null when none prices the token.',
  })
  priceUSD?: string | null;
}

@ObjectType({ description: 'The tokens of one chain.' })
export class ChainTokens {
  @Field({ description: 'CAIP-2 id of the chain.' })
  caip2Id!: string;

  @Field(() => [Token])
  tokens!: Token[];
}

@ObjectType({ description: 'The source-chain transaction that executes a route, to be signed and sent as is.' })
export class TransactionData {
  @Field({ description: "Sender: the quote's fromAddress." })
  from!: string;

  @Field()
  to!: string;

  @Field({ description: 'Calldata (hex on EVM chains).' })
  data!: string;

  @Field({ description: 'Native value in base units, decimal string.' })
  value!: string;

  @Field({ description: 'Gas limit, decimal string; "0" asks the wallet to estimate.' })
  gasLimit!: string;

  @Field({ description: 'Gas price in base units, decimal string; "0" asks the wallet to price it.' })
  gasPrice!: string;

  @Field(() => GraphQLSafeInt, { description: 'Chain id of the source chain.' })
  chainId!: number;
}

@ObjectType({ description: 'One way of bridging the requested amount.' })
export class Route {
  @Field({ description: 'Route id; pass it to bridgeStatus as routeId to link the transaction to this route.' })
  id!: string;

  @Field()
  fromChain!: string;

  @Field()
  toChain!: string;

  @Field()
  fromToken!: string;

  @Field()
  toToken!: string;

  @Field({ description: 'Amount sent, in base units.' })
  fromAmount!: string;

  @Field({ description: 'Expected amount received, in base units.' })
  toAmount!: string;

  @Field({ description: 'Minimum amount received after slippage, in base units.' })
  toAmountMin!: string;

  @Field({ description: 'Source-chain gas cost in USD.' })
  gasCostUSD!: string;

  @Field({ description: 'Bridge and relayer fees in USD.' })
  feeCostUSD!: string;

  @Field()
  fromAmountUSD!: string;

  @Field()
  toAmountUSD!: string;

  @Field({ description: 'The bridge that moves the funds (e.g. `across`, `stargatev2`).' })
  bridgeProvider!: string;

  @Field({ description: 'The aggregator or API that quoted the route (`lifi`, `across`, `sandbox`).' })
  aggregator!: string;

  @Field(() => GraphQLSafeInt)
  estimatedTimeSeconds!: number;

  @Field(() => TransactionData)
  transactionData!: TransactionData;

  @Field(() => String, {
    nullable: true,
    description: 'Spender the source token must allow (ERC-20 sources); null for native tokens.',
  })
  approvalAddress?: string | null;

  @Field(() => TransactionData, {
    nullable: true,
    description:
      'Send before transactionData: `approve(approvalAddress, fromAmount)` on the source token. Null when no ' +
      'allowance is needed (native token, or the upstream saw a sufficient allowance).',
  })
  approvalTransaction?: TransactionData | null;

  @Field(() => String, {
    nullable: true,
    description: 'Solana sources: the base64 serialised transaction to sign, where the upstream gives one.',
  })
  serializedTransaction?: string | null;

  @Field(() => GraphQLSafeInt, {
    description: 'Seconds since the epoch after which the route is refused; quote again after it.',
  })
  expiresAt!: number;
}

@ObjectType({ description: 'A transaction of a transfer.' })
export class TxInfo {
  @Field()
  txHash!: string;

  @Field({ description: "Link to the chain's explorer; empty when the chain has no known explorer." })
  txLink!: string;

  @Field(() => GraphQLSafeInt, { description: 'Chain id; 0 when unknown.' })
  chainId!: number;

  @Field({ description: 'Gas used, decimal string; "0" when not reported.' })
  gasUsed!: string;

  @Field({ description: 'Gas price, decimal string; "0" when not reported.' })
  gasPrice!: string;

  @Field(() => GraphQLSafeInt, { description: 'Block time in seconds since the epoch; 0 when unknown.' })
  timestamp!: number;
}

@ObjectType({ description: 'Status of a bridge transfer, by source transaction.' })
export class BridgeStatus {
  @Field(() => String, { description: 'NOT_FOUND, PENDING, DONE or FAILED. DONE and FAILED are final.' })
  status!: BridgeStatusValue;

  @Field({ description: 'The bridge that moves the funds when known, else the aggregator.' })
  bridge!: string;

  @Field(() => String, { nullable: true, description: 'The aggregator that reported the status (`lifi`, `across`).' })
  aggregator?: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      'Finer state: WAIT_SOURCE_CONFIRMATIONS, WAIT_DESTINATION_TRANSACTION, BRIDGE_NOT_AVAILABLE, COMPLETED, ' +
      'PARTIAL, REFUNDED, EXPIRED…; null when the provider gives none.',
  })
  substatus?: string | null;

  @Field(() => String, { nullable: true, description: "The provider's words for the substatus." })
  substatusMessage?: string | null;

  @Field(() => TxInfo, { description: 'The source transaction.' })
  fromTx!: TxInfo;

  @Field(() => TxInfo, { nullable: true, description: 'The destination transaction; null until it exists.' })
  toTx!: TxInfo | null;

  @Field(() => GraphQLSafeInt, {
    description: 'Percent done: 100 only for a DONE that completed as quoted (REFUNDED or PARTIAL stay below).',
  })
  progress!: number;

  @Field({ description: 'What is happening, in words.' })
  message!: string;
}

@ObjectType({ description: 'A bridge provider and whether it serves.' })
export class BridgeProviderInfo {
  @Field({ description: "Name, as used by `bridgeProvider` and the status call's `bridge` hint." })
  name!: string;

  @Field()
  enabled!: boolean;

  @Field(() => String, { nullable: true, description: 'Why the provider is disabled and how to enable it.' })
  reason!: string | null;
}

@InputType({ description: 'A quote request; the same parameters as GET /partners/bridge/quote.' })
export class BridgeQuoteInput {
  @Field({ description: 'Source CAIP-2 id.' })
  fromChain!: string;

  @Field({ description: 'Destination CAIP-2 id.' })
  toChain!: string;

  @Field({ description: 'Source token address.' })
  fromToken!: string;

  @Field({ description: 'Destination token address.' })
  toToken!: string;

  @Field({ description: "Amount in the source token's smallest unit, a decimal integer string." })
  fromAmount!: string;

  @Field({ description: 'Source wallet address.' })
  fromAddress!: string;

  @Field(() => String, {
    nullable: true,
    description: 'Destination wallet; defaults to fromAddress when both chains share an address format.',
  })
  toAddress?: string | null;

  @Field(() => Float, { nullable: true, description: 'Tolerance as a fraction in (0, 0.5]; default 0.03.' })
  slippage?: number | null;

  @Field(() => String, {
    nullable: true,
    description: 'CHEAPEST (default: most received net of costs first) or FASTEST (shortest estimated time first).',
  })
  order?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Comma list of bridge names a route may use (e.g. "across,stargatev2"); default: any.',
  })
  allowBridges?: string | null;

  @Field(() => String, { nullable: true, description: 'Comma list of bridge names a route must not use.' })
  denyBridges?: string | null;

  @Field(() => Int, { nullable: true, description: 'Most routes answered, 1 to 20; default 5.' })
  maxRoutes?: number | null;
}
