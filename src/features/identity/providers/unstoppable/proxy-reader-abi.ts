/**
 * The ProxyReader calls this provider makes, as `@unstoppabledomains/uns` 1.0.17 `artifacts/ProxyReader.json`
 * declares them. ProxyReader routes each token to the UNS or the legacy CNS registry on its chain.
 */
export const proxyReaderAbi = [
  {
    type: 'function',
    name: 'getData',
    stateMutability: 'view',
    inputs: [
      { name: 'keys', type: 'string[]' },
      { name: 'tokenId', type: 'uint256' },
    ],
    outputs: [
      { name: 'resolver', type: 'address' },
      { name: 'owner', type: 'address' },
      { name: 'values', type: 'string[]' },
    ],
  },
  {
    type: 'function',
    name: 'reverseNameOf',
    stateMutability: 'view',
    inputs: [{ name: 'addr', type: 'address' }],
    outputs: [{ name: '', type: 'string' }],
  },
] as const;
