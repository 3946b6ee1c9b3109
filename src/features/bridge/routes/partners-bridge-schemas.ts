/** JSON schemas of the bridge resources, shared by the bridge REST routes' response schemas. */
const str = { type: 'string' } as const;
const int = { type: 'integer' } as const;

export const chainSchema = {
  type: 'object',
  required: ['caip2Id', 'name', 'nativeToken', 'logoURI', 'isBridgeSupported'],
  properties: { caip2Id: str, name: str, nativeToken: str, logoURI: str, isBridgeSupported: { type: 'boolean' } },
} as const;

export const tokenSchema = {
  type: 'object',
  // priceUSD is left out when no live upstream prices the token (never invented).
  required: ['address', 'symbol', 'name', 'decimals', 'logoURI'],
  properties: { address: str, symbol: str, name: str, decimals: int, logoURI: str, priceUSD: str },
} as const;

export const transactionDataSchema = {
  type: 'object',
  required: ['from', 'to', 'data', 'value', 'gasLimit', 'gasPrice', 'chainId'],
  properties: { from: str, to: str, data: str, value: str, gasLimit: str, gasPrice: str, chainId: int },
} as const;

export const routeSchema = {
  type: 'object',
  required: [
    'id',
    'fromChain',
    'toChain',
    'fromToken',
    'toToken',
    'fromAmount',
    'toAmount',
    'toAmountMin',
    'gasCostUSD',
    'feeCostUSD',
    'fromAmountUSD',
    'toAmountUSD',
    'bridgeProvider',
    'estimatedTimeSeconds',
    'transactionData',
  ],
  properties: {
    id: str,
    fromChain: str,
    toChain: str,
    fromToken: str,
    toToken: str,
    fromAmount: str,
    toAmount: str,
    toAmountMin: str,
    gasCostUSD: str,
    feeCostUSD: str,
    fromAmountUSD: str,
    toAmountUSD: str,
    bridgeProvider: str,
    estimatedTimeSeconds: int,
    transactionData: transactionDataSchema,
  },
} as const;

export const txInfoSchema = {
  type: 'object',
  required: ['txHash', 'txLink', 'chainId', 'gasUsed', 'gasPrice', 'timestamp'],
  properties: { txHash: str, txLink: str, chainId: int, gasUsed: str, gasPrice: str, timestamp: int },
} as const;

export const statusSchema = {
  type: 'object',
  required: ['status', 'bridge', 'fromTx', 'toTx', 'progress', 'message'],
  properties: {
    status: { type: 'string', enum: ['NOT_FOUND', 'PENDING', 'DONE', 'FAILED'] },
    bridge: str,
    fromTx: txInfoSchema,
    toTx: txInfoSchema,
    progress: int,
    message: str,
  },
} as const;
