import { type Connection, PublicKey } from '@solana/web3.js';
import { decodeNameRegistry, type NameRegistry } from './decode-name-registry.js';
import { decodeRecordV1 } from './decode-record-v1.js';
import { getAccounts } from './get-accounts.js';
import { getDomainKey } from './get-domain-key.js';
import { getRecordKey, type SnsRecord } from './get-record-key.js';
import { getTokenizationKeys, isActiveNftRecord } from './get-tokenization-keys.js';
import { getTokenizedHolder } from './get-tokenized-holder.js';

/** A registry owner of all zeros means nobody (what a burned or reclaimed name is left with). */
const NO_OWNER = PublicKey.default;

export interface GetSnsDomainParameters {
  /** Full `.sol` name, e.g. `bonfida.sol` or `dex.bonfida.sol`. */
  name: string;
  /** V1 records to read besides SOL (always read: it decides the address). */
  records?: readonly SnsRecord[];
}

export interface SnsDomain {
  /** Normalised full name. */
  name: string;
  pubkey: PublicKey;
  registry: NameRegistry;
  /** Whether the domain is held through an NFT. */
  tokenized: boolean;
  /** Who owns the name: the NFT holder when tokenized, else the registry owner. Null when nobody does. */
  holder: PublicKey | null;
  /** What the name resolves to (Bonfida's `resolve` order): NFT holder, else a valid SOL record, else the owner. */
  address: PublicKey | null;
  /** Decoded V1 records that are set and valid. */
  records: Partial<Record<SnsRecord, string>>;
}

/**
 * Reads a `.sol` domain, its tokenization state and V1 records in one `getMultipleAccounts` call (two more
 * for a tokenized domain). Null when the name is not registered.
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
  const { nftRecord } = getTokenizationKeys(pubkey);

  const [domainInfo, nftInfo, ...recordInfos] = await getAccounts(connection, [pubkey, nftRecord, ...recordKeys]);
  if (!domainInfo) return null;
  const registry = decodeNameRegistry(domainInfo);

  const tokenized = isActiveNftRecord(nftInfo);
  const owner = registry.owner.equals(NO_OWNER) ? null : registry.owner;
  const holder = tokenized ? await getTokenizedHolder(connection, { domainKey: pubkey }) : owner;

  const decoded: Partial<Record<SnsRecord, string>> = {};
  wanted.forEach((record, i) => {
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

  // A SOL record only counts while it carries the current owner's signature (checked when decoding), and a
  // tokenized domain ignores it: the NFT holder did not sign it.
  const address = !tokenized && decoded.SOL !== undefined ? new PublicKey(decoded.SOL) : holder;
  return { name: normalized, pubkey, registry, tokenized, holder, address, records: decoded };
}
