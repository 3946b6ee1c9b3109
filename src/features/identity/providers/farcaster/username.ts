/** The kinds of Farcaster usernames: an fname (offchain, fname registry) or an ENS name the account proved. */
export type FarcasterUsername = { kind: 'fname'; name: string } | { kind: 'ens'; name: string };

/**
 * The protocol's fname rule (Farcaster specification, "Usernames"): 1 to 16 characters of `a-z`, `0-9`
 * and `-`, not starting with `-`. ENS usernames are `<label>.eth` (and Basenames `<label>.base.eth`)
 * whose label follows the same rule.
 */
const FNAME = /^[a-z0-9][a-z0-9-]{0,15}$/;
const ENS_NAME = /^([a-z0-9][a-z0-9-]{0,15})\.(base\.)?eth$/;

/**
 * The username a query names: `alice`, `farcaster/alice`, `alice.fcast.id` (the fname's ENS name),
 * `farcaster/vitalik.eth`. Throws on anything Farcaster cannot hold.
 */
export function parseFarcasterUsername(query: string): FarcasterUsername {
  let name = query.trim().normalize('NFC').toLowerCase();
  if (name.startsWith('farcaster/')) name = name.slice('farcaster/'.length);
  else if (name.endsWith('.fcast.id')) name = name.slice(0, -'.fcast.id'.length);
  if (FNAME.test(name)) return { kind: 'fname', name };
  if (ENS_NAME.test(name)) return { kind: 'ens', name };
  throw new Error('a Farcaster username is 1-16 of a-z, 0-9 and - (not first), or such a label + .eth');
}
