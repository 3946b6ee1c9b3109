import type { MoveValue } from '@aptos-labs/ts-sdk';
import type { Fullnode } from './fullnode.js';
import { isMoveAbort } from './fullnode.js';

/**
 * The view functions of an Aptos Names–style router (aptos-labs/aptos-names-contracts,
 * router/sources/router.move), called the same way by `@aptos-labs/ts-sdk`'s ANS helpers
 * (src/internal/ans.ts). Aptos Names (`.apt`) is that router; MNS (`.snow`) derives from it:
 *   get_target_addr(domain: String, subdomain: Option<String>): Option<address>
 *   get_owner_addr(domain: String, subdomain: Option<String>): Option<address>
 *   get_expiration(domain: String, subdomain: Option<String>): u64   (aborts for an unregistered name)
 *   get_primary_name(addr: address): (Option<String> subdomain, Option<String> domain)
 * Each is `module::function` under the router's address.
 */
export interface ViewFunctions {
  target: string;
  owner: string;
  expiration: string;
  primary: string;
}

/** The router's own function names, which Aptos Names serves and MNS defaults to. */
export const ROUTER_VIEW_FUNCTIONS: ViewFunctions = {
  target: 'router::get_target_addr',
  owner: 'router::get_owner_addr',
  expiration: 'router::get_expiration',
  primary: 'router::get_primary_name',
};

/** A name as the router's functions take it: `pay.alice.apt` → domain `alice`, subdomain `pay`. */
export interface MoveNameArgs {
  domain: string;
  subdomain: string | null;
}

/** Splits a full name under `suffix` (`.apt`, `.snow`) into the router's arguments; null for other shapes. */
export function moveNameArgs(name: string, suffix: string): MoveNameArgs | null {
  if (!name.endsWith(suffix)) return null;
  const labels = name.slice(0, -suffix.length).split('.');
  if (labels.length === 1) return { domain: labels[0] as string, subdomain: null };
  if (labels.length === 2) return { domain: labels[1] as string, subdomain: labels[0] as string };
  return null;
}

/** The JSON form of a Move `Option` in the Aptos REST API: `{"vec": []}` or `{"vec": [value]}`. */
export const moveOption = (value: string | null): { vec: string[] } => ({ vec: value === null ? [] : [value] });

/** Reads a Move `Option` as the Aptos REST API encodes it; null for `none` or anything else. */
export function unwrapOption(value: MoveValue | undefined): string | null {
  if (value && typeof value === 'object' && 'vec' in value && Array.isArray(value.vec)) {
    const [inner] = value.vec as unknown[];
    return typeof inner === 'string' ? inner : null;
  }
  return null;
}

export interface NameRouterOptions {
  /** Address the router module is published at. */
  moduleAddress: string;
  functions: ViewFunctions;
  /** Suffix of the names the router holds, e.g. `.apt`. */
  suffix: string;
}

/**
 * One router on one fullnode, read through `/v1/view`. Every method takes a normalized full name and
 * answers null for a name it cannot express (wrong suffix, too many labels) without asking the node.
 */
export class NameRouter {
  constructor(
    readonly node: Fullnode,
    private readonly options: NameRouterOptions,
  ) {}

  private view(fn: string, args: unknown[], signal?: AbortSignal): Promise<MoveValue[]> {
    return this.node.call(signal, (aptos) =>
      aptos.viewJson({
        payload: {
          function: `${this.options.moduleAddress}::${fn}` as `${string}::${string}::${string}`,
          functionArguments: args as MoveValue[],
        },
      }),
    );
  }

  private async nameView(fn: string, name: string, signal?: AbortSignal): Promise<MoveValue | undefined | null> {
    const args = moveNameArgs(name, this.options.suffix);
    if (!args) return null;
    const [value] = await this.view(fn, [args.domain, moveOption(args.subdomain)], signal);
    return value;
  }

  /** The address a name points to; null when it has none, is not registered or (v2 names) expired. */
  async target(name: string, signal?: AbortSignal): Promise<string | null> {
    return unwrapOption((await this.nameView(this.options.functions.target, name, signal)) ?? undefined);
  }

  /** The token owner of a name, null when it is not registered. */
  async owner(name: string, signal?: AbortSignal): Promise<string | null> {
    return unwrapOption((await this.nameView(this.options.functions.owner, name, signal)) ?? undefined);
  }

  /** When a name expires; null when it is not registered (the view aborts). */
  async expiration(name: string, signal?: AbortSignal): Promise<Date | null> {
    try {
      const secs = await this.nameView(this.options.functions.expiration, name, signal);
      // u64 arrives as a decimal string.
      return typeof secs === 'string' && /^\d+$/.test(secs) ? new Date(Number(secs) * 1000) : null;
    } catch (err) {
      if (isMoveAbort(err)) return null;
      throw err;
    }
  }

  /** The primary name of an address as the router stores it (labels, no suffix), or null. */
  async primary(address: string, signal?: AbortSignal): Promise<MoveNameArgs | null> {
    const [sub, domain] = await this.view(this.options.functions.primary, [address], signal);
    const domainName = unwrapOption(domain);
    return domainName === null ? null : { domain: domainName, subdomain: unwrapOption(sub) };
  }
}
