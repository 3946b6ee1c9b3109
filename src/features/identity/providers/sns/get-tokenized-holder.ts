import { type Connection, PublicKey, SolanaJSONRPCError } from '@solana/web3.js';
import { TOKEN_PROGRAM_ID } from './constants.js';
import { MalformedAccountError } from './decode-name-registry.js';
import { getTokenizationKeys } from './get-tokenization-keys.js';

/** SPL token account: mint 32 | owner 32 | amount u64 | … (165 bytes). */
const TOKEN_ACCOUNT_MIN_LEN = 72;
/** JSON-RPC "invalid params": what RPC nodes answer for a mint that was never created. */
const INVALID_PARAMS = -32602;

export interface GetTokenizedHolderParameters {
  /** Name account of a domain whose NFT record is active. */
  domainKey: PublicKey;
}

/**
 * Finds the wallet holding a tokenized domain's NFT: the mint's largest token account, if it holds the
 * single token. Null when nobody holds it (burned, or the mint does not exist).
 *
 * @example
 * const holder = await getTokenizedHolder(connection, { domainKey });
 */
export async function getTokenizedHolder(
  connection: Connection,
  { domainKey }: GetTokenizedHolderParameters,
): Promise<PublicKey | null> {
  const { mint } = getTokenizationKeys(domainKey);
  let largest: Awaited<ReturnType<Connection['getTokenLargestAccounts']>>;
  try {
    largest = await connection.getTokenLargestAccounts(mint);
  } catch (error) {
    if (error instanceof SolanaJSONRPCError && error.code === INVALID_PARAMS) return null;
    throw error;
  }
  const top = largest.value[0];
  if (top?.amount !== '1') return null;

  const account = await connection.getAccountInfo(top.address);
  if (!account) return null;
  const { data } = account;
  if (!account.owner.equals(TOKEN_PROGRAM_ID) || data.length < TOKEN_ACCOUNT_MIN_LEN) {
    throw new MalformedAccountError(`${top.address.toBase58()} is not an SPL token account`);
  }
  if (!new PublicKey(data.subarray(0, 32)).equals(mint)) {
    throw new MalformedAccountError(`${top.address.toBase58()} is not a token account of mint ${mint.toBase58()}`);
  }
  return data.readBigUInt64LE(64) === 1n ? new PublicKey(data.subarray(32, 64)) : null;
}
