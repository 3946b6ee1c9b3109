import { type Connection, PublicKey } from '@solana/web3.js';
import { NAME_OFFERS_ID, SOL_SUFFIX, SOL_TLD_KEY } from './constants.js';
import { decodeNameRegistry, decodeReverseName, MalformedAccountError } from './decode-name-registry.js';
import { getAccounts } from './get-accounts.js';
import { getDomainKey } from './get-domain-key.js';
import { getPrimaryDomainKey } from './get-primary-domain-key.js';
import { getReverseKey } from './get-reverse-key.js';
import { getTokenizationKeys, isActiveNftRecord } from './get-tokenization-keys.js';
import { getTokenizedHolder } from './get-tokenized-holder.js';

/** Primary-domain account: tag u8 | name account 32. */
const PRIMARY_DOMAIN_LEN = 33;

export interface GetPrimaryNameParameters {
  /** Wallet whose primary domain to read. */
  wallet: PublicKey;
}

export interface PrimaryName {
  /** Full name, e.g. `bonfida.sol` or `dex.bonfida.sol`. */
  name: string;
  domainKey: PublicKey;
  /**
   * True when the wallet no longer owns the domain (it was transferred or sold after being set as primary);
   * such a primary name must not be shown as the wallet's name.
   */
  stale: boolean;
}

/**
 * Reads a wallet's primary ("favourite") `.sol` domain and names it through the reverse-lookup accounts,
 * like Bonfida's `getPrimaryDomain`. The name found is re-derived and must give back the same account, so
 * a reverse account that disagrees with the name it stores yields null rather than a wrong name.
 *
 * @example
 * const primary = await getPrimaryName(connection, { wallet });
 * if (primary && !primary.stale) console.log(primary.name);
 */
export async function getPrimaryName(
  connection: Connection,
  { wallet }: GetPrimaryNameParameters,
): Promise<PrimaryName | null> {
  const primaryInfo = await connection.getAccountInfo(getPrimaryDomainKey(wallet));
  if (!primaryInfo) return null;
  if (!primaryInfo.owner.equals(NAME_OFFERS_ID) || primaryInfo.data.length < PRIMARY_DOMAIN_LEN) {
    throw new MalformedAccountError('primary-domain account does not have the name-offers layout');
  }
  const domainKey = new PublicKey(primaryInfo.data.subarray(1, PRIMARY_DOMAIN_LEN));

  const [domainInfo, nftInfo] = await getAccounts(connection, [domainKey, getTokenizationKeys(domainKey).nftRecord]);
  if (!domainInfo) return null;
  const registry = decodeNameRegistry(domainInfo);
  const parent = registry.parentName.equals(SOL_TLD_KEY) ? undefined : registry.parentName;

  const [reverseInfo, parentReverseInfo, parentInfo] = await getAccounts(
    connection,
    parent ? [getReverseKey(domainKey, parent), getReverseKey(parent), parent] : [getReverseKey(domainKey)],
  );
  if (!reverseInfo) return null;
  const label = decodeReverseName(decodeNameRegistry(reverseInfo).data);
  let name = `${label}${SOL_SUFFIX}`;
  if (parent) {
    // Only a subdomain of a `.sol` domain has a `.sol` name.
    if (!parentInfo || !parentReverseInfo || !decodeNameRegistry(parentInfo).parentName.equals(SOL_TLD_KEY))
      return null;
    name = `${label}.${decodeReverseName(decodeNameRegistry(parentReverseInfo).data)}${SOL_SUFFIX}`;
  }

  let derived: PublicKey;
  try {
    derived = getDomainKey(name).pubkey;
  } catch {
    return null;
  }
  if (!derived.equals(domainKey)) return null;

  const tokenized = isActiveNftRecord(nftInfo);
  const holder = tokenized ? await getTokenizedHolder(connection, { domainKey }) : registry.owner;
  return { name, domainKey, stale: !holder?.equals(wallet) };
}
