import { PublicKey, SystemProgram, Transaction, TransactionInstruction } from '@solana/web3.js';
import {
  bytesToHex,
  concat,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  keccak256,
  stringToBytes,
} from 'viem';
import type { KnownChain } from '../../../chains/registry.js';
import type { TransactionData } from '../types.js';
import { foreignAddressBytes, SANDBOX_DEPOSIT_ADDRESS, solanaKey } from './addresses.js';

/**
 * The call a sandbox deposit makes, shaped after Across' SpokePool `deposit`: addresses of the
 * destination chain are `bytes` because they may be Solana keys or Bitcoin addresses (encoding in
 * `foreignAddressBytes`). No contract implements it; it exists so sandbox calldata decodes with
 * ordinary ABI tooling.
 */
export const SANDBOX_DEPOSIT_ABI = [
  {
    type: 'function',
    name: 'deposit',
    stateMutability: 'payable',
    inputs: [
      { name: 'depositor', type: 'address' },
      { name: 'recipient', type: 'bytes' },
      { name: 'inputToken', type: 'address' },
      { name: 'outputToken', type: 'bytes' },
      { name: 'inputAmount', type: 'uint256' },
      { name: 'outputAmount', type: 'uint256' },
      { name: 'destinationChainId', type: 'uint256' },
      { name: 'quoteTimestamp', type: 'uint32' },
      { name: 'fillDeadline', type: 'uint32' },
    ],
    outputs: [],
  },
] as const;

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
  return keccak256(
    encodeAbiParameters(
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

function evmTransaction(intent: DepositIntent): TransactionData {
  const family = intent.destination.family;
  return {
    chainId: intent.chainId,
    from: intent.depositor,
    to: SANDBOX_DEPOSIT_ADDRESS.evm,
    data: encodeFunctionData({
      abi: SANDBOX_DEPOSIT_ABI,
      functionName: 'deposit',
      args: [
        getAddress(intent.depositor),
        foreignAddressBytes(family, intent.recipient),
        getAddress(intent.inputToken),
        foreignAddressBytes(family, intent.outputToken),
        intent.inputAmount,
        intent.outputAmount,
        BigInt(intent.destinationChainId),
        intent.quoteTimestamp,
        intent.fillDeadline,
      ],
    }),
    // A token deposit pulls the amount with transferFrom (after an approval of `to`); only a native
    // deposit carries value.
    value: intent.native ? intent.inputAmount.toString() : '0',
    gasLimit: intent.gasLimit.toString(),
    gasPrice: intent.gasPrice.toString(),
  };
}

const TOKEN_PROGRAM = new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
const ASSOCIATED_TOKEN_PROGRAM = new PublicKey('ATokenGPvbd2APRfGvJ9m4GC1SmaZQnB8g4k8Eh6oADF');
const MEMO_PROGRAM = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

const associatedTokenAccount = (owner: PublicKey, mint: PublicKey): PublicKey =>
  PublicKey.findProgramAddressSync(
    [owner.toBuffer(), TOKEN_PROGRAM.toBuffer(), mint.toBuffer()],
    ASSOCIATED_TOKEN_PROGRAM,
  )[0];

/**
 * Solana has no calldata, so `data` is an unsigned legacy transaction, base64-encoded the way LI.FI
 * and wallets exchange Solana transactions: a transfer to the sandbox deposit account (SystemProgram
 * for SOL; create-idempotent of the deposit's token account plus SPL TransferChecked for a mint) and
 * a Memo with the intent's commitment. Its recent blockhash is a placeholder (all zeros): the wallet
 * must set a fresh one before signing. `to` is the deposit account, `chainId` LI.FI's Solana id.
 */
function solanaTransaction(intent: DepositIntent, decimals: number): TransactionData {
  const owner = solanaKey(intent.depositor);
  if (!owner) throw new RangeError(`not a Solana address: ${intent.depositor}`);
  const deposit = new PublicKey(SANDBOX_DEPOSIT_ADDRESS.solana);
  const tx = new Transaction({ feePayer: owner, recentBlockhash: PublicKey.default.toBase58() });
  if (intent.native) {
    tx.add(SystemProgram.transfer({ fromPubkey: owner, toPubkey: deposit, lamports: intent.inputAmount }));
  } else {
    const mint = new PublicKey(intent.inputToken);
    const source = associatedTokenAccount(owner, mint);
    const target = associatedTokenAccount(deposit, mint);
    tx.add(
      new TransactionInstruction({
        programId: ASSOCIATED_TOKEN_PROGRAM,
        keys: [
          { pubkey: owner, isSigner: true, isWritable: true },
          { pubkey: target, isSigner: false, isWritable: true },
          { pubkey: deposit, isSigner: false, isWritable: false },
          { pubkey: mint, isSigner: false, isWritable: false },
          { pubkey: SystemProgram.programId, isSigner: false, isWritable: false },
          { pubkey: TOKEN_PROGRAM, isSigner: false, isWritable: false },
        ],
        data: Buffer.from([1]), // CreateIdempotent
      }),
    );
    const transfer = Buffer.alloc(10);
    transfer.writeUInt8(12, 0); // TransferChecked
    transfer.writeBigUInt64LE(intent.inputAmount, 1);
    transfer.writeUInt8(decimals, 9);
    tx.add(
      new TransactionInstruction({
        programId: TOKEN_PROGRAM,
        keys: [
          { pubkey: source, isSigner: false, isWritable: true },
          { pubkey: mint, isSigner: false, isWritable: false },
          { pubkey: target, isSigner: false, isWritable: true },
          { pubkey: owner, isSigner: true, isWritable: false },
        ],
        data: transfer,
      }),
    );
  }
  tx.add(
    new TransactionInstruction({
      programId: MEMO_PROGRAM,
      keys: [{ pubkey: owner, isSigner: true, isWritable: false }],
      data: Buffer.from(`cipgate-sandbox:${intentCommitment(intent)}`, 'utf8'),
    }),
  );
  return {
    chainId: intent.chainId,
    from: intent.depositor,
    to: SANDBOX_DEPOSIT_ADDRESS.solana,
    data: tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64'),
    value: intent.native ? intent.inputAmount.toString() : '0',
    gasLimit: intent.gasLimit.toString(),
    gasPrice: intent.gasPrice.toString(),
  };
}

/** Prefix of the sandbox's Bitcoin OP_RETURN payload. */
export const BITCOIN_MEMO_PREFIX = 'SBX1';

/**
 * A Bitcoin deposit is a payment of `value` satoshis to `to` with an OP_RETURN output whose payload
 * is `data` (hex): the prefix and the intent's 32-byte commitment. The intent itself cannot fit the
 * 80-byte OP_RETURN limit once a Solana recipient and mint are involved, so it stays server-side in
 * the route's tracking, as intent-based bridges keep it.
 */
function bitcoinTransaction(intent: DepositIntent): TransactionData {
  return {
    chainId: intent.chainId,
    from: intent.depositor,
    to: SANDBOX_DEPOSIT_ADDRESS.bitcoin,
    data: concat([bytesToHex(stringToBytes(BITCOIN_MEMO_PREFIX)), intentCommitment(intent)]),
    value: intent.inputAmount.toString(),
    gasLimit: intent.gasLimit.toString(),
    gasPrice: intent.gasPrice.toString(),
  };
}

/** The source-chain transaction of a sandbox deposit. */
export function depositTransaction(intent: DepositIntent, inputDecimals: number): TransactionData {
  switch (intent.source.family) {
    case 'evm':
      return evmTransaction(intent);
    case 'solana':
      return solanaTransaction(intent, inputDecimals);
    case 'bitcoin':
      return bitcoinTransaction(intent);
    default:
      throw new RangeError(`sandbox cannot deposit from ${intent.source.caip2Id}`);
  }
}
