import { chainById } from '../../platform/chains/registry.js';
import type { NamingProvider } from './providers/types.js';
import { asUrl } from './scalars.js';
import type { IdentityHit } from './search.js';
import type { IdentityResult, NamingProviderStatus } from './types.js';

/** An identity result as the spec shapes it: the provider's constant description plus the name's record. */
export function toIdentityResult({ info, record }: IdentityHit): IdentityResult {
  return {
    name: record.name,
    ownerAddress: record.ownerAddress,
    source: info.source,
    provider: info.provider,
    providerName: info.providerName,
    caip2Id: record.caip2Id,
    // Records come from upstreams and imports: a value that is not a URL is reported as no avatar
    // rather than failing the whole answer when the URL scalar serialises it.
    avatar: asUrl(record.avatar),
    logoURI: info.logoURI,
    url: info.url,
    expireAt: record.expireAt,
    registeredAt: record.registeredAt,
    multichainAddresses: record.multichainAddresses.map(({ address, caip2Id }) => {
      const chain = chainById(caip2Id);
      return {
        address,
        caip2Id,
        chainName: chain?.name ?? null,
        symbol: chain?.nativeToken ?? null,
        chain: { caip2Id },
      };
    }),
    txtRecords: record.txtRecords.map(({ key, value, type }) => ({ key, value, type })),
  };
}

export function toProviderStatus(provider: NamingProvider): NamingProviderStatus {
  const { info, status } = provider;
  return {
    provider: info.provider,
    source: info.source,
    providerName: info.providerName,
    caip2Id: info.caip2Id,
    suffixes: [...info.suffixes],
    logoURI: info.logoURI,
    url: info.url,
    enabled: status.enabled,
    reason: status.enabled ? null : status.reason,
  };
}
