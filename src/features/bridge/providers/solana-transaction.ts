/**
 * Unsigned Solana transactions for Solana-source routes, base64-encoded the way wallets exchange
 * them. Intent networks answer either with instructions (Relay) or with a serialized transaction
 * (deBridge); both end up as one `VersionedTransaction` whose fee payer is the route's sender.
 */
import { createRequire } from 'node:module';
import type * as SolanaWeb3 from '@solana/web3.js';

// @solana/web3.js (tens of MiB resident) loads with the first Solana-source route, not in every
// process; `require` keeps the call synchronous, and the package's entry is CommonJS.
let web3: typeof SolanaWeb3 | undefined;
const solanaWeb3 = (): typeof SolanaWeb3 => {
  web3 ??= createRequire(import.meta.url)('@solana/web3.js') as typeof SolanaWeb3;
  return web3;
};

/** Largest transaction the Solana network accepts (PACKET_DATA_SIZE). */
const MAX_TRANSACTION_BYTES = 1232;

export interface SolanaInstructionWire {
  keys: { pubkey: string; isSigner: boolean; isWritable: boolean }[];
  programId: string;
  /** Hex-encoded instruction data. */
  data: string;
}

/**
 * A v0 transaction of `instructions` paid by `payer`, base64; undefined when it does not fit a
 * Solana packet. Its recent blockhash is a placeholder (all zeros) the wallet replaces before signing,
 * as the upstreams' own integration examples do. Lookup tables are not applied (reading them needs
 * a Solana RPC): their accounts are written in full, which only costs size.
 */
export function transactionFromInstructions(
  instructions: readonly SolanaInstructionWire[],
  payer: string,
): string | undefined {
  const { PublicKey, TransactionInstruction, TransactionMessage, VersionedTransaction } = solanaWeb3();
  const message = new TransactionMessage({
    payerKey: new PublicKey(payer),
    recentBlockhash: PublicKey.default.toBase58(),
    instructions: instructions.map(
      (ix) =>
        new TransactionInstruction({
          programId: new PublicKey(ix.programId),
          keys: ix.keys.map((k) => ({
            pubkey: new PublicKey(k.pubkey),
            isSigner: k.isSigner,
            isWritable: k.isWritable,
          })),
          data: Buffer.from(ix.data.replace(/^0x/, ''), 'hex'),
        }),
    ),
  }).compileToV0Message();
  let bytes: Uint8Array;
  try {
    bytes = new VersionedTransaction(message).serialize();
  } catch {
    return undefined;
  }
  return bytes.length <= MAX_TRANSACTION_BYTES ? Buffer.from(bytes).toString('base64') : undefined;
}

/**
 * The fee payer of a serialized transaction (legacy or v0), or undefined when the bytes are not a
 * Solana transaction. The payer is the message's first account key.
 */
export function payerOf(serialized: Uint8Array): string | undefined {
  const { VersionedTransaction } = solanaWeb3();
  try {
    const tx = VersionedTransaction.deserialize(serialized);
    return tx.message.staticAccountKeys[0]?.toBase58();
  } catch {
    return undefined;
  }
}

/** Whether `address` is a Solana public key (base58 of 32 bytes). */
export function isSolanaAddress(address: string): boolean {
  const { PublicKey } = solanaWeb3();
  try {
    return /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(address) && new PublicKey(address).toBytes().length === 32;
  } catch {
    return false;
  }
}
