import { createRequire } from 'node:module';
import type * as SolanaWeb3 from '@solana/web3.js';
import * as AbiParameters from 'ox/AbiParameters';
import * as Address from 'ox/Address';
import * as Hash from 'ox/Hash';
import * as Hex from 'ox/Hex';
import type { KnownChain } from '../../../../platform/chains/registry.js';
import type { TransactionData } from '../types.js';
import { isSolanaKey } from './addresses.js';

/** What the deposit asks the (imaginary) relayer to do; every source format carries it. */
export interface DepositIntent {
  source: KnownChain;
  destination: KnownChain;
  destinationChainId: number;
  depositor: string;
  recipient: string;
  inputToken: string;
  outputToken: string;
  inputAmount: bigint;
  /** The minimum the relayer must deliver: the quote's toAmountMin. */
  outputAmount: bigint;
  quoteTimestamp: number;
  fillDeadline: number;
  native: boolean;
  gasLimit: bigint;
  gasPrice: bigint;
  /** Numeric id of the source chain for `transactionData.chainId`. */
  chainId: number;
}

/** Keccak of the ABI-encoded intent: the deposit id written where a format has no room for the intent. */
export function intentCommitment(intent: DepositIntent): `0x${string}` {
  return Hash.keccak256(
    AbiParameters.encode(
      [
        { type: 'uint256' },
        { type: 'uint256' },
        { type: 'string' },
        { type: 'string' },
        { type: 'string' },
        { type: 'string' },
        { type: 'uint256' },
        { type: 'uint256' },
        { type: 'uint32' },
        { type: 'uint32' },
      ],
      [
        BigInt(intent.chainId),
        BigInt(intent.destinationChainId),
        intent.depositor,
        intent.recipient,
        intent.inputToken,
        intent.outputToken,
        intent.inputAmount,
        intent.outputAmount,
        intent.quoteTimestamp,
        intent.fillDeadline,
      ],
    ),
  );
}

/**
 * Text every sandbox transaction carries ahead of the intent's commitment. On EVM chains its first
 * four bytes ("cipg") are what a contract would read as a selector; the call goes to the sender's
 * own address, where there is no code (or, with an EIP-7702 delegation, code that has no such function).
 */
export const SANDBOX_MARKER = 'cipgate sandbox quote: not a bridge deposit, moves no funds:';

/** The marker and the commitment, the same bytes on every family (calldata, memo, OP_RETURN). */
export const sandboxPayload = (intent: DepositIntent): `0x${string}` =>
  Hex.concat(Hex.fromString(SANDBOX_MARKER), intentCommitment(intent));

/**
 * A call from the sender to itself with no value: signed on a real network it costs its gas and
 * moves nothing. The commitment keeps each quote's transaction distinct, so status can still link a
 * mined one to its route.
 */
function evmTransaction(intent: DepositIntent): TransactionData {
  return {
    chainId: intent.chainId,
    from: intent.depositor,
    to: Address.checksum(intent.depositor),
    data: sandboxPayload(intent),
    value: '0',
    gasLimit: intent.gasLimit.toString(),
    gasPrice: intent.gasPrice.toString(),
  };
}

const MEMO_PROGRAM = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr';

// @solana/web3.js (tens of MiB resident) is loaded on the first Solana deposit a sandbox partner asks
// for, not in every process; `require` keeps this path synchronous, and the package's entry is CommonJS.
let web3: typeof SolanaWeb3 | undefined;
const solanaWeb3 = (): typeof SolanaWeb3 => {
  web3 ??= createRequire(import.meta.url)('@solana/web3.js') as typeof SolanaWeb3;
  return web3;
};

/**
 * Solana has no calldata, so `data` is an unsigned legacy transaction, base64-encoded the way LI.FI
 * and wallets exchange Solana transactions. It holds a single Memo instruction with the marker and
 * the commitment, signed by the sender: it costs the signature fee and transfers nothing. Its
 * recent blockhash is a placeholder (all zeros) the wallet replaces before signing.
 */
function solanaTransaction(intent: DepositIntent): TransactionData {
  if (!isSolanaKey(intent.depositor)) throw new RangeError(`not a Solana address: ${intent.depositor}`);
  const { PublicKey, Transaction, TransactionInstruction } = solanaWeb3();
  const owner = new PublicKey(intent.depositor);
  const tx = new Transaction({ feePayer: owner, recentBlockhash: PublicKey.default.toBase58() });
  tx.add(
    new TransactionInstruction({
      programId: new PublicKey(MEMO_PROGRAM),
      keys: [{ pubkey: owner, isSigner: true, isWritable: false }],
      data: Buffer.from(`${SANDBOX_MARKER}${intentCommitment(intent)}`, 'utf8'),
    }),
  );
  return {
    chainId: intent.chainId,
    from: intent.depositor,
    to: intent.depositor,
    data: tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64'),
    value: '0',
    gasLimit: intent.gasLimit.toString(),
    gasPrice: intent.gasPrice.toString(),
  };
}

/**
 * A Bitcoin "deposit" pays nothing to anyone: `to` is the sender, `value` 0, and `data` the payload of
 * an OP_RETURN output (marker and commitment, hex). A wallet building it spends only the fee.
 */
function bitcoinTransaction(intent: DepositIntent): TransactionData {
  return {
    chainId: intent.chainId,
    from: intent.depositor,
    to: intent.depositor,
    data: sandboxPayload(intent),
    value: '0',
    gasLimit: intent.gasLimit.toString(),
    gasPrice: intent.gasPrice.toString(),
  };
}

/** The source-chain transaction of a sandbox quote: harmless if signed on a real network. */
export function depositTransaction(intent: DepositIntent): TransactionData {
  switch (intent.source.family) {
    case 'evm':
      return evmTransaction(intent);
    case 'solana':
      return solanaTransaction(intent);
    case 'bitcoin':
      return bitcoinTransaction(intent);
    default:
      throw new RangeError(`sandbox cannot deposit from ${intent.source.caip2Id}`);
  }
}
