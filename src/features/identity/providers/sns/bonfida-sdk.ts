import * as esm from '@bonfida/spl-name-service';

/**
 * Bonfida's SNS SDK (`@bonfida/spl-name-service`) with its types. Its ESM declaration files import their
 * siblings without file extensions, which TypeScript's `nodenext` resolution cannot follow (every export
 * would be missing); its CommonJS declarations describe the same API and resolve, so the ESM module is
 * typed with them.
 */
type Cjs = typeof import('@bonfida/spl-name-service', { with: { 'resolution-mode': 'require' }});
export const bonfida = esm as unknown as Cjs;

/** The SDK's record type enum (`Record`), whose values are the record names (`SOL`, `url`, …). */
export type BonfidaRecord = (typeof bonfida.Record)[keyof typeof bonfida.Record];

/**
 * Validation types of a Records V2 account (sns-records `Validation`, `#[repr(u16)]`, SNS-IP 3). The SDK
 * re-exports them, but from a package whose declarations do not resolve, so they are typed here.
 */
export const Validation = bonfida.Validation as { None: 0; Solana: 1; Ethereum: 2; UnverifiedSolana: 3 };
