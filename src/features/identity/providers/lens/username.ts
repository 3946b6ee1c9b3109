/**
 * The global Lens namespace's rule (lens.xyz/docs/protocol/usernames/create): `a-z`, `0-9`, `-` and `_`,
 * starting with a letter or a digit, at most 26 characters. New names need 5 or more; shorter ones
 * from before that rule still resolve, so they are accepted here.
 */
const LOCAL_NAME = /^[a-z0-9][a-z0-9_-]{0,25}$/;

/** The local name of `stani.lens` or `lens/stani`; throws on anything the global namespace cannot hold. */
export function parseLensUsername(query: string): string {
  let name = query.trim().normalize('NFC').toLowerCase();
  if (name.startsWith('lens/')) name = name.slice('lens/'.length);
  else if (name.endsWith('.lens')) name = name.slice(0, -'.lens'.length);
  else throw new Error('a Lens username is written `name.lens` or `lens/name`');
  if (!LOCAL_NAME.test(name)) {
    throw new Error('a Lens username is 1-26 of a-z, 0-9, - and _, starting with a letter or a digit');
  }
  return name;
}
