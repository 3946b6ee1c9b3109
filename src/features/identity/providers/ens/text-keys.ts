/**
 * Text record keys read for every name. Resolvers cannot enumerate their keys, so this is the list
 * of ENSIP-5 global keys and the service keys wallets and profile pages display.
 */
export const TEXT_RECORD_KEYS: readonly string[] = [
  'avatar',
  'header',
  'display',
  'description',
  'url',
  'email',
  'location',
  'keywords',
  'notice',
  'com.twitter',
  'com.github',
  'com.discord',
  'org.telegram',
  'com.reddit',
  'com.linkedin',
  'xyz.farcaster',
  'io.keybase',
];
