/**
 * Looks a source transaction up on an EVM chain through JSON-RPC. Bridge providers that only know
 * an intent (the sandbox, or a relayer API that lags behind the chain) can use it to tell a mined,
 * a reverted and an unknown deposit apart, and to fill `fromTx` with real numbers.
 */
import {
  createPublicClient,
  type Hash,
  http,
  type PublicClient,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from 'viem';
import { explorerTxLink } from '../../../../platform/chains/registry.js';
import { UpstreamError } from '../../../../platform/upstream/status.js';
import type { TxInfo } from '../types.js';

export const ONCHAIN_PROVIDER = 'onchain';

export type SourceTxState = 'NOT_FOUND' | 'PENDING' | 'SUCCESS' | 'REVERTED';

export interface SourceTxCheck {
  state: SourceTxState;
  /** Present once the transaction is mined (SUCCESS or REVERTED). */
  txInfo?: TxInfo;
}

export interface CheckSourceTransactionOptions {
  rpcUrl: string;
  txHash: string;
  /** EVM chain id the RPC serves; picks the explorer for `txLink`. */
  chainId: number;
  signal?: AbortSignal;
  /** Per-request timeout; defaults to 10 s. */
  timeoutMs?: number;
}

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;

/**
 * State of a source transaction: SUCCESS or REVERTED once mined (with its TxInfo), PENDING while a
 * node knows it but has not mined it, NOT_FOUND when the node does not know it (never sent, dropped,
 * or not yet propagated; callers keep polling as the spec says for NOT_FOUND). A string that cannot
 * be an EVM hash is NOT_FOUND without asking. RPC failures throw `UpstreamError`; an abort through
 * `signal` rethrows the abort reason, since it is the caller's decision, not an upstream failure.
 */
export async function checkSourceTransaction(options: CheckSourceTransactionOptions): Promise<SourceTxCheck> {
  const { rpcUrl, txHash, chainId, signal } = options;
  if (!TX_HASH.test(txHash)) return { state: 'NOT_FOUND' };
  const hash = txHash.toLowerCase() as Hash;
  const client: PublicClient = createPublicClient({
    // No retries here: status polling already repeats every few seconds, and the caller's circuit
    // breaker should see failures promptly instead of after viem's backoff.
    transport: http(rpcUrl, { retryCount: 0, timeout: options.timeoutMs ?? 10_000, fetchOptions: { signal } }),
  });
  try {
    const receipt = await client.getTransactionReceipt({ hash }).catch((error: unknown) => {
      if (error instanceof TransactionReceiptNotFoundError) return null;
      throw error;
    });
    if (!receipt) {
      // No receipt: either unmined (in the node's pool) or unknown altogether.
      const tx = await client.getTransaction({ hash }).catch((error: unknown) => {
        if (error instanceof TransactionNotFoundError) return null;
        throw error;
      });
      return { state: tx ? 'PENDING' : 'NOT_FOUND' };
    }
    const block = await client.getBlock({ blockNumber: receipt.blockNumber });
    return {
      state: receipt.status === 'success' ? 'SUCCESS' : 'REVERTED',
      txInfo: {
        txHash: receipt.transactionHash,
        // Chains without a public explorer in the registry (local nodes, testnets) get no link.
        txLink: explorerTxLink(`eip155:${chainId}`, receipt.transactionHash) ?? '',
        chainId,
        gasUsed: receipt.gasUsed.toString(),
        gasPrice: receipt.effectiveGasPrice.toString(),
        timestamp: Number(block.timestamp),
      },
    };
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    const detail =
      error instanceof Error ? ((error as { shortMessage?: string }).shortMessage ?? error.message) : String(error);
    throw new UpstreamError(ONCHAIN_PROVIDER, `transaction lookup on chain ${chainId} failed: ${detail}`, {
      cause: error,
    });
  }
}
