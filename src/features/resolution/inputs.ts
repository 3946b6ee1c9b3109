import { badInput, quoted } from '../../platform/errors.js';
import { ADDRESS_RULE, normalizeMoveAddress } from './registry/address.js';
import { InvalidNameError, normalizeMnsName } from './registry/name.js';
import {
  InvalidNetworkError,
  type MnsNetwork,
  MOVEMENT_NAMESPACE,
  networksOf,
  parseChainId,
} from './registry/networks.js';

/** Most addresses or names one batch call takes (the REST schemas enforce the same number). */
export const MAX_BATCH = 1000;

/** Networks of a CAIP-2 argument, mainnet first; a bad id is a BAD_USER_INPUT error. */
export function networksArg(caip2Id: string | null | undefined): readonly MnsNetwork[] {
  try {
    return networksOf(caip2Id ?? 'move-mvmt:*');
  } catch (err) {
    if (err instanceof InvalidNetworkError) throw badInput(err.message, { argument: 'caip2Id' });
    throw err;
  }
}

/**
 * What a name → address lookup's CAIP-2 id asks for: Movement networks, or (an extension real clients
 * rely on: Snowball's MetaMask snap sends the wallet's chain id) another chain, answered from the name's
 * multichain address records.
 */
export type ChainTarget =
  | { networks: readonly MnsNetwork[]; chain?: undefined }
  | { chain: string; networks?: undefined };

export function chainTargetArg(caip2Id: string): ChainTarget {
  const parsed = parseChainId(caip2Id.trim());
  if (parsed && parsed.namespace !== MOVEMENT_NAMESPACE && parsed.reference !== '*') {
    return { chain: `${parsed.namespace}:${parsed.reference}` };
  }
  return { networks: networksArg(caip2Id) };
}

/** An argument's name, `names[3]` for an item of a list: made only for an error, not for every item. */
const argumentName = (argument: string, index: number | undefined) =>
  index === undefined ? argument : `${argument}[${index}]`;

export function nameArg(name: string, argument = 'name', index?: number): string {
  try {
    return normalizeMnsName(name);
  } catch (err) {
    if (err instanceof InvalidNameError) {
      throw badInput(`Invalid name ${quoted(name)}: ${err.message}`, { argument: argumentName(argument, index) });
    }
    throw err;
  }
}

export function addressArg(address: string, argument = 'address', index?: number): string {
  const key = normalizeMoveAddress(address);
  if (!key) {
    throw badInput(`Invalid address ${quoted(address)}: expected ${ADDRESS_RULE}`, {
      argument: argumentName(argument, index),
    });
  }
  return key;
}

export function batchArg<T>(items: readonly T[], argument: string): readonly T[] {
  if (items.length > MAX_BATCH) {
    throw badInput(`At most ${MAX_BATCH} ${argument} per request, got ${items.length}`, { argument });
  }
  return items;
}
