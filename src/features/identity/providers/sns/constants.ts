import { PublicKey } from '@solana/web3.js';

/**
 * On-chain addresses of the Solana Name Service, as published in Bonfida's `sns-sdk`
 * (`js/src/constants.ts`, `js/src/favorite-domain.ts`, `js/src/nft/const.ts`). They are protocol
 * constants: a wrong byte derives keys that simply do not exist, so every lookup would answer "unknown".
 */

/** The SPL Name Service program that owns every name, record and reverse-lookup account. */
export const NAME_PROGRAM_ID = new PublicKey('namesLPneVptA9Z5rqUDD9tMTWEJwofgaYwp8cawRkX');

/** The `.sol` TLD account: parent of every second-level `.sol` domain. */
export const SOL_TLD_KEY = new PublicKey('58PwtjSDuFHuUkYjH9BYnnQKHfwo9reZhC2zMJv9JPkx');

/** Class of reverse-lookup accounts (the registrar's central state), which only the registrar can write. */
export const REVERSE_LOOKUP_CLASS = new PublicKey('33m47vH6Eav6jr5Ry86XjhRft2jRBLDnDgPSHoquXi2Z');

/** The "name offers" program that stores each wallet's primary ("favourite") domain. */
export const NAME_OFFERS_ID = new PublicKey('85iDfUvr3HJyLM2zcq5BXSiDvUWfw6cSE1FfNBo8Ap29');

/** The name-tokenizer program: a tokenized domain is held by an NFT rather than by its registry owner. */
export const NAME_TOKENIZER_ID = new PublicKey('nftD3vbNkNqfj2Sd3HZwbpw4BxxKWr4AjGb9X38JeZk');

/** SPL Token program, owner of the token accounts that hold a tokenized domain's NFT. */
export const TOKEN_PROGRAM_ID = new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');

/**
 * Central state of the SNS Records program (`HP3D4D1ZCmohQGFVms2SS4LCANgJyksBf5s1F77FuFjZ`, SNS-IP 3): the
 * class and owner of every Records V2 account (sns-records `program/src/cpi.rs` creates them so), published
 * as `CENTRAL_STATE_SNS_RECORDS` in `@bonfida/sns-records`.
 */
export const SNS_RECORDS_CENTRAL_STATE = new PublicKey('2pMnqHvei2N5oDcVGCRdZx48gqti199wr5CsyTTafsbo');

/** Prefix the name program hashes in front of every name (`sha256(prefix + name)`). */
export const HASH_PREFIX = 'SPL Name Service';

/** Size of the name-registry header: parentName 32 | owner 32 | class 32. */
export const NAME_REGISTRY_HEADER_LEN = 96;

export { SOL_SUFFIX, SOLANA_MAINNET } from './info.js';
