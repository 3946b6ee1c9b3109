import { type Connection, PublicKey } from '@solana/web3.js';
import { decodeNameRegistry, type NameRegistry } from './decode-name-registry.js';
import { decodeRecordV1 } from './decode-record-v1.js';
import { decodeRecordV2 } from './decode-record-v2.js';
import { getAccounts } from './get-accounts.js';
import { getDomainKey } from './get-domain-key.js';
import { getRecordKey, getRecordV2Key, type SnsRecord } from './get-record-key.js';
import { getTokenizationKeys, isActiveNftRecord } from './get-tokenization-keys.js';
import { getTokenizedHolder } from './get-tokenized-holder.js';

/** A registry owner of all zeros means nobody (what a burned or reclaimed name is left with). */
const NO_OWNER = PublicKey.default;

export interface GetSnsDomainParameters {
  /** Full `.sol` name, e.g. `bonfida.sol` or `dex.bonfida.sol`. */
  name: string;
  /** Records to read besides SOL (always read: it decides the address). */
  records?: readonly SnsRecord[];
}

export interface SnsDomain {
  /** Normalized full name. */
  name: string;
  pubkey: PublicKey;
  registry: NameRegistry;
  /** Whether the domain is held through an NFT. */
  tokenized: boolean;
  /** Who owns the name: the NFT holder when tokenized, else the registry owner. Null when nobody does. */
  holder: PublicKey | null;
  /**
   * What the name resolves to (Bonfida's `resolve` order): NFT holder, else a valid SOL V2 record, else a
   * valid SOL V1 record, else the owner.
   */
  address: PublicKey | null;
  /** Records that are set and valid: the V2 record where it is valid, else the V1 record. */
  records: Partial<Record<SnsRecord, string>>;
  /** Records whose V2 account exists but was ignored (stale, unverified or malformed), with the reason. */
  ignoredV2: Partial<Record<SnsRecord, 'stale' | 'unverified' | 'malformed'>>;
}

/**
 * Reads a `.sol` domain, its tokenization state and its records (V2 and V1 accounts of each) in one
 * `getMultipleAccounts` call (two more for a tokenized domain). Null when the name is not registered.
 *
 * Records V2 come first, as current SNS apps write them: a V2 record counts only while it is not stale
 * and its right of association holds (see `decodeRecordV2`); otherwise, or without one, the V1 record is
 * the fallback, like the SDK's `resolve` falls back from a stale SOL V2 record to V1.
 *
 * @example
 * const domain = await getSnsDomain(connection, { name: 'bonfida.sol', records: ['url', 'twitter'] });
 * domain?.address?.toBase58();
 */
export async function getSnsDomain(
  connection: Connection,
  { name, records = [] }: GetSnsDomainParameters,
): Promise<SnsDomain | null> {
  const { name: normalized, pubkey } = getDomainKey(name);
  const wanted = ['SOL', ...records.filter((r) => r !== 'SOL')] as SnsRecord[];
  const recordKeys = wanted.map((record) => getRecordKey(pubkey, record));
  const v2Keys = wanted.map((record) => getRecordV2Key(pubkey, record));
  const { nftRecord } = getTokenizationKeys(pubkey);

  const [domainInfo, nftInfo, ...infos] = await getAccounts(connection, [pubkey, nftRecord, ...recordKeys, ...v2Keys]);
  const recordInfos = infos.slice(0, wanted.length);
  const v2Infos = infos.slice(wanted.length);
  if (!domainInfo) return null;
  const registry = decodeNameRegistry(domainInfo);

  const tokenized = isActiveNftRecord(nftInfo);
  const owner = registry.owner.equals(NO_OWNER) ? null : registry.owner;
  const holder = tokenized ? await getTokenizedHolder(connection, { domainKey: pubkey }) : owner;

  const decoded: Partial<Record<SnsRecord, string>> = {};
  const ignoredV2: SnsDomain['ignoredV2'] = {};
  wanted.forEach((record, i) => {
    const info = v2Infos[i];
    if (!info) return;
    const v2 = decodeRecordV2({ record, data: decodeNameRegistry(info).data, holder });
    if (v2.status === 'valid') decoded[record] = v2.value;
    else ignoredV2[record] = v2.status;
  });
  wanted.forEach((record, i) => {
    if (decoded[record] !== undefined) return;
    const info = recordInfos[i];
    const recordKey = recordKeys[i];
    if (!info || !recordKey) return;
    const value = decodeRecordV1({
      record,
      data: decodeNameRegistry(info).data,
      recordKey,
      domainOwner: registry.owner,
    });
    if (value !== undefined) decoded[record] = value;
  });

  // A SOL record only counts while the current owner stands behind it (V2: staleness id; V1: signature),
  // and a tokenized domain ignores it: the NFT holder did not write it.
  const address = !tokenized && decoded.SOL !== undefined ? new PublicKey(decoded.SOL) : holder;
  return { name: normalized, pubkey, registry, tokenized, holder, address, records: decoded, ignoredV2 };
}
