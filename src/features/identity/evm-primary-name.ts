import * as Address from 'ox/Address';
import { evmCoinType } from '../../platform/chains/registry.js';
import { badInput, upstreamUnavailable } from '../../platform/errors.js';
import { UpstreamError } from '../../platform/upstream/status.js';
import type { NamingProviders } from './provider-registry.js';

export interface EvmPrimaryNameAnswer {
  name: string;
  /** The address, checksummed. */
  address: string;
  chainId: number;
  /** Provider whose record answered (`ens`, `basenames`). */
  provider: string;
}

/** Largest chain id ENSIP-11 can turn into a coin type (`0x80000000 | chainId` must fit 32 bits). */
const MAX_CHAIN_ID = 0x7fff_ffff;

/**
 * The ENSIP-19 primary name of an EVM address on a chain, verified forward. ENS answers first: on
 * Ethereum it holds every chain's reverse namespace (`<coinType>.reverse`, then `default.reverse`).
 * A naming service living on that very chain (Basenames on Base, SPACE ID on BNB Chain and Arbitrum,
 * Unstoppable Domains on Polygon and Ethereum) is asked next, for primary names written only there. A failing provider is skipped when another one answers; if none could answer,
 * the caller gets `upstreamUnavailable` rather than a misleading null.
 *
 * @example
 * await evmPrimaryName(naming, { address: '0xd8dA…6045', chainId: 1 }) // { name: 'vitalik.eth', … } or null
 */
export async function evmPrimaryName(
  naming: NamingProviders,
  { address, chainId, timeoutMs }: { address: string; chainId: number; timeoutMs: number },
): Promise<EvmPrimaryNameAnswer | null> {
  if (!Address.validate(address, { strict: false }))
    throw badInput('address must be a 0x-prefixed 20-byte EVM address');
  if (!Number.isInteger(chainId) || chainId < 1 || chainId > MAX_CHAIN_ID) {
    throw badInput(`chainId must be an integer from 1 to ${MAX_CHAIN_ID}`);
  }
  const caip2Id = `eip155:${chainId}`;
  const providers = naming
    .enabled()
    .filter((p) => p.info.provider === 'ens' || (p.info.reverseCaip2Ids ?? [p.info.caip2Id]).includes(caip2Id));
  if (providers.length === 0) throw upstreamUnavailable('no EVM naming service is enabled on this server');
  const coinType = evmCoinType(chainId);
  const signal = AbortSignal.timeout(timeoutMs);
  let failures = 0;
  for (const provider of providers) {
    try {
      const name = await provider.reverse(address, { coinType, signal });
      if (name) return { name, address: Address.checksum(address), chainId, provider: provider.info.provider };
    } catch (err) {
      if (!(err instanceof UpstreamError)) throw err;
      failures++;
    }
  }
  if (failures === providers.length) throw upstreamUnavailable('naming services did not answer');
  return null;
}
