/** CAIP-2 namespace of Movement networks. */
export const MOVEMENT_NAMESPACE = 'move-mvmt';

/**
 * Network references MNS names live on, mainnet first: when a name exists on several, mainnet wins.
 * 250 is the Bardock testnet, which Snowball's own `@snowballmoney/chain-agnostic-utils` lists beside
 * 126 (mainnet) and 177 (Porto testnet).
 */
export const MNS_NETWORKS = ['126', '177', '250'] as const;
export type MnsNetwork = (typeof MNS_NETWORKS)[number];

// A Map, not an object literal: a reference such as "constructor" must not find Object.prototype's.
const ALIASES = new Map<string, readonly MnsNetwork[]>(
  Object.entries({
    '126': ['126'],
    mainnet: ['126'],
    '177': ['177'],
    // "testnet" meant 177 before Bardock existed, and clients still send it meaning that.
    testnet: ['177'],
    '250': ['250'],
    '*': MNS_NETWORKS,
  }),
);

// One string per network, made once: a 1000-address batch names a network in every answer.
const CAIP2_IDS = new Map<string, string>(MNS_NETWORKS.map((n) => [n, `${MOVEMENT_NAMESPACE}:${n}`]));
export const caip2IdOf = (network: MnsNetwork): string => CAIP2_IDS.get(network) ?? `${MOVEMENT_NAMESPACE}:${network}`;

/**
 * A CAIP-2 id, allowing namespaces longer than CAIP-2's 8 characters: the operator's own Movement
 * namespace, `move-mvmt`, has 9, and its clients send it. `*` is the wildcard reference.
 */
const CHAIN_ID = /^([-a-z0-9]{3,32}):([-_a-zA-Z0-9]{1,32}|\*)$/;

export function parseChainId(id: string): { namespace: string; reference: string } | null {
  const m = CHAIN_ID.exec(id);
  return m ? { namespace: m[1] as string, reference: m[2] as string } : null;
}

export class InvalidNetworkError extends Error {
  override name = 'InvalidNetworkError';
}

/**
 * The networks a CAIP-2 id of the public interface covers, mainnet first. `move-mvmt:126`/`mainnet`,
 * `move-mvmt:177`/`testnet`, and `move-mvmt:*` for all. Throws `InvalidNetworkError` with a message
 * fit for the caller otherwise.
 */
export function networksOf(caip2Id: string, options: { wildcard?: boolean } = {}): readonly MnsNetwork[] {
  const parsed = parseChainId(caip2Id.trim());
  if (!parsed) {
    throw new InvalidNetworkError(`Invalid CAIP-2 id "${caip2Id}": expected namespace:reference, e.g. move-mvmt:126`);
  }
  if (parsed.namespace !== MOVEMENT_NAMESPACE) {
    throw new InvalidNetworkError(
      `Unsupported chain "${caip2Id}": names resolve on ${MOVEMENT_NAMESPACE} networks only (move-mvmt:126 mainnet, move-mvmt:177 and move-mvmt:250 testnets, move-mvmt:* for all)`,
    );
  }
  const networks = ALIASES.get(parsed.reference.toLowerCase());
  if (!networks || (networks.length > 1 && options.wildcard === false)) {
    const allowed =
      options.wildcard === false
        ? '126 (mainnet), 177 (testnet) or 250 (Bardock testnet)'
        : '126 (mainnet), 177 (testnet), 250 (Bardock testnet) or *';
    throw new InvalidNetworkError(`Unknown Movement network "${caip2Id}": use ${allowed}`);
  }
  return networks;
}

/** Of one name's answers on several networks, the one that answers: the first in `MNS_NETWORKS` order. */
export function preferredNetwork<T extends { network: MnsNetwork }>(rows: readonly T[]): T | null {
  for (const network of MNS_NETWORKS) {
    const row = rows.find((r) => r.network === network);
    if (row) return row;
  }
  return null;
}
