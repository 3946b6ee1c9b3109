/**
 * Minimal ABIs of the ENS contracts read here. Only the view functions the actions call are listed,
 * so the same ABIs fit ENS on Ethereum, Basenames on Base and a bare local deployment.
 */

export const registryAbi = [
  {
    type: 'function',
    name: 'resolver',
    stateMutability: 'view',
    inputs: [{ name: 'node', type: 'bytes32' }],
    outputs: [{ name: '', type: 'address' }],
  },
  {
    type: 'function',
    name: 'owner',
    stateMutability: 'view',
    inputs: [{ name: 'node', type: 'bytes32' }],
    outputs: [{ name: '', type: 'address' }],
  },
] as const;

export const addrResolverAbi = [
  {
    type: 'function',
    name: 'addr',
    stateMutability: 'view',
    inputs: [{ name: 'node', type: 'bytes32' }],
    outputs: [{ name: '', type: 'address' }],
  },
  {
    type: 'function',
    name: 'addr',
    stateMutability: 'view',
    inputs: [
      { name: 'node', type: 'bytes32' },
      { name: 'coinType', type: 'uint256' },
    ],
    outputs: [{ name: '', type: 'bytes' }],
  },
] as const;

export const textResolverAbi = [
  {
    type: 'function',
    name: 'text',
    stateMutability: 'view',
    inputs: [
      { name: 'node', type: 'bytes32' },
      { name: 'key', type: 'string' },
    ],
    outputs: [{ name: '', type: 'string' }],
  },
] as const;

export const nameResolverAbi = [
  {
    type: 'function',
    name: 'name',
    stateMutability: 'view',
    inputs: [{ name: 'node', type: 'bytes32' }],
    outputs: [{ name: '', type: 'string' }],
  },
] as const;

/** ENS `BaseRegistrarImplementation` and the Basenames `BaseRegistrar` share this getter (token id = labelhash). */
export const baseRegistrarAbi = [
  {
    type: 'function',
    name: 'nameExpires',
    stateMutability: 'view',
    inputs: [{ name: 'id', type: 'uint256' }],
    outputs: [{ name: '', type: 'uint256' }],
  },
] as const;

/** ENSIP-19 L2 reverse registrar: primary names stored in the contract itself, not in the registry. */
export const l2ReverseRegistrarAbi = [
  {
    type: 'function',
    name: 'nameForAddr',
    stateMutability: 'view',
    inputs: [{ name: 'addr', type: 'address' }],
    outputs: [{ name: '', type: 'string' }],
  },
] as const;

/**
 * ENSIP-10 `IExtendedResolver` (interface id 0x9061b923): a wildcard resolver answers for names below
 * the node it is set on; `name` is DNS-encoded and `data` the ABI-encoded record call (`addr(node)`, …).
 * https://docs.ens.domains/ensip/10
 */
export const extendedResolverAbi = [
  {
    type: 'function',
    name: 'resolve',
    stateMutability: 'view',
    inputs: [
      { name: 'name', type: 'bytes' },
      { name: 'data', type: 'bytes' },
    ],
    outputs: [{ name: '', type: 'bytes' }],
  },
] as const;

/** ERC-165 interface detection, which ENSIP-10 uses to tell extended resolvers apart. */
export const erc165Abi = [
  {
    type: 'function',
    name: 'supportsInterface',
    stateMutability: 'view',
    inputs: [{ name: 'interfaceID', type: 'bytes4' }],
    outputs: [{ name: '', type: 'bool' }],
  },
] as const;

export const EXTENDED_RESOLVER_INTERFACE_ID = '0x9061b923';
