import type { Connection, PublicKey } from '@solana/web3.js';
import { decodeNameRegistry, decodeReverseName } from './decode-name-registry.js';
import { getReverseKey } from './get-reverse-key.js';

export interface ReverseLookupParameters {
  /** Name account to name. */
  domainKey: PublicKey;
  /** Parent domain account when `domainKey` is a subdomain (its reverse account is keyed under the parent). */
  parent?: PublicKey | undefined;
}

/**
 * Reads the label the registrar stored for a name account in its reverse-lookup account (`bonfida` for
 * `bonfida.sol`, `dex` for `dex.bonfida.sol`). Null when the account has no reverse-lookup account.
 *
 * @example
 * await reverseLookup(connection, { domainKey: getDomainKey('bonfida.sol').pubkey }); // 'bonfida'
 */
export async function reverseLookup(
  connection: Connection,
  { domainKey, parent }: ReverseLookupParameters,
): Promise<string | null> {
  const info = await connection.getAccountInfo(getReverseKey(domainKey, parent));
  return info ? decodeReverseName(decodeNameRegistry(info).data) : null;
}
