import { COIN_TYPE_ETHEREUM } from './coin-address.js';

/** ENSIP-19 coin type of the "default" EVM chain: `default.reverse` and the fallback EVM address. */
export const COIN_TYPE_DEFAULT_EVM = 0x8000_0000;

/**
 * ENSIP-19 reverse namespace of a coin type (https://docs.ens.domains/ensip/19): `addr.reverse` for
 * Ethereum (60), `default.reverse` for the default EVM coin type, `<coinType in lower-case hex>.reverse`
 * for everything else (`80002105.reverse` is Base).
 *
 * @example
 * reverseNamespace(60) // 'addr.reverse'
 * reverseNamespace(0x80002105) // '80002105.reverse'
 */
export function reverseNamespace(coinType: number): string {
  if (coinType === COIN_TYPE_ETHEREUM) return 'addr.reverse';
  if (coinType === COIN_TYPE_DEFAULT_EVM) return 'default.reverse';
  return `${coinType.toString(16)}.reverse`;
}

/** Whether a coin type names an EVM chain (ENSIP-11 `0x80000000 | chainId`, or Ethereum's 60). */
export function isEvmCoinType(coinType: number): boolean {
  return coinType === COIN_TYPE_ETHEREUM || (coinType >= COIN_TYPE_DEFAULT_EVM && coinType <= 0xffff_ffff);
}
