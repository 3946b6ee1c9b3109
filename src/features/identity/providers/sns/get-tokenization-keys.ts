import { type AccountInfo, PublicKey } from '@solana/web3.js';
import { NAME_TOKENIZER_ID } from './constants.js';

/**
 * Derives the name-tokenizer accounts of a domain: its NFT record (`["nft_record", domain]`) and the NFT
 * mint (`["tokenized_name", domain]`). While the record is active the domain's registry owner is the
 * tokenizer, and whoever holds the mint's single token owns the name.
 *
 * @example
 * const { nftRecord, mint } = getTokenizationKeys(getDomainKey('bonfida.sol').pubkey);
 */
export function getTokenizationKeys(domainKey: PublicKey): { nftRecord: PublicKey; mint: PublicKey } {
  const nftRecord = PublicKey.findProgramAddressSync(
    [Buffer.from('nft_record'), domainKey.toBytes()],
    NAME_TOKENIZER_ID,
  )[0];
  const mint = PublicKey.findProgramAddressSync(
    [Buffer.from('tokenized_name'), domainKey.toBytes()],
    NAME_TOKENIZER_ID,
  )[0];
  return { nftRecord, mint };
}

/** Tag of an NFT record whose domain is currently tokenized (name-tokenizer `Tag::ActiveRecord`). */
const ACTIVE_NFT_RECORD = 2;

/**
 * Whether a domain's NFT record account (null when it was never tokenized) says the domain is tokenized now.
 *
 * @example
 * const [nftInfo] = await connection.getMultipleAccountsInfo([getTokenizationKeys(domainKey).nftRecord]);
 * isActiveNftRecord(nftInfo);
 */
export function isActiveNftRecord(info: Pick<AccountInfo<Buffer>, 'data' | 'owner'> | null | undefined): boolean {
  return !!info && info.owner.equals(NAME_TOKENIZER_ID) && info.data[0] === ACTIVE_NFT_RECORD;
}
