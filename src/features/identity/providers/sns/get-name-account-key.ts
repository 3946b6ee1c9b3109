import { PublicKey } from '@solana/web3.js';
import { NAME_PROGRAM_ID } from './constants.js';

export interface GetNameAccountKeyParameters {
  /** Output of `getHashedName`. */
  hashedName: Uint8Array;
  /** Class of the account; the program seeds 32 zero bytes when there is none. */
  nameClass?: PublicKey | undefined;
  /** Parent name account; 32 zero bytes when there is none. */
  parent?: PublicKey | undefined;
}

const NONE = new Uint8Array(32);

/**
 * Derives a name account address exactly as the SPL Name Service program does:
 * `findProgramAddress([hashedName, class or 0^32, parent or 0^32], NAME_PROGRAM_ID)`.
 *
 * @example
 * const key = getNameAccountKey({ hashedName: getHashedName('bonfida'), parent: SOL_TLD_KEY });
 * key.toBase58(); // 'Crf8hzfthWGbGbLTVCiqRqV5MVnbpHB1L9KQMd6gsinb'
 */
export function getNameAccountKey({ hashedName, nameClass, parent }: GetNameAccountKeyParameters): PublicKey {
  const seeds = [hashedName, nameClass ? nameClass.toBytes() : NONE, parent ? parent.toBytes() : NONE];
  return PublicKey.findProgramAddressSync(seeds, NAME_PROGRAM_ID)[0];
}
