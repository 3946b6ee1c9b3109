import { SOL_SUFFIX } from './info.js';

/** A `.sol` name split into the labels the name program hashes. */
export interface ParsedSnsName {
  /** Normalized full name, e.g. `dex.bonfida.sol`. */
  name: string;
  /** Second-level label, e.g. `bonfida`. */
  domain: string;
  /** Subdomain label, e.g. `dex`; undefined for a second-level domain. */
  sub: string | undefined;
}

// Control characters would collide with the program's own label prefixes (`\0` subdomain, `\x01`/`\x02`
// records), and whitespace or dots inside a label cannot come from a registration.
const INVALID_LABEL = /[\s\p{Cc}.]/u;

/**
 * Normalizes and splits a `.sol` name (`bonfida.sol`, `dex.bonfida.sol`). SNS hashes the exact bytes of a
 * label, so the name is NFC-normalized and lower-cased (the registrar only issues lower-case names).
 * Throws on anything SNS cannot hold: another suffix, empty labels, or deeper than one subdomain level.
 *
 * @example
 * parseSnsName('Dex.Bonfida.sol'); // { name: 'dex.bonfida.sol', domain: 'bonfida', sub: 'dex' }
 */
export function parseSnsName(input: string): ParsedSnsName {
  const name = input.normalize('NFC').trim().toLowerCase();
  if (!name.endsWith(SOL_SUFFIX)) throw new Error(`not a ${SOL_SUFFIX} name: ${input}`);
  const labels = name.slice(0, -SOL_SUFFIX.length).split('.');
  if (labels.length > 2) throw new Error(`SNS names have at most one subdomain level: ${input}`);
  if (labels.some((l) => l.length === 0 || INVALID_LABEL.test(l))) throw new Error(`invalid SNS name: ${input}`);
  const [first, second] = labels as [string, string | undefined];
  return second === undefined ? { name, domain: first, sub: undefined } : { name, domain: second, sub: first };
}
