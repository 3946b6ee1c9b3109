import type { TxtRecordType } from './types.js';

// ENSIP-5 global keys and the reverse-DNS service keys that wallets show as social profiles.
const SOCIAL = new Set([
  'com.twitter',
  'com.x',
  'x',
  'twitter',
  'com.github',
  'github',
  'com.discord',
  'discord',
  'org.telegram',
  'telegram',
  'com.reddit',
  'com.linkedin',
  'com.instagram',
  'com.youtube',
  'xyz.farcaster',
  'com.warpcast',
  'io.keybase',
]);
const URL_KEYS = new Set(['url', 'website', 'avatar', 'header']);

/** Types a text record by its key, so clients can render it without knowing every service's key names. */
export function txtRecordType(key: string): TxtRecordType {
  const k = key.toLowerCase();
  if (k === 'email') return 'email';
  if (URL_KEYS.has(k)) return 'url';
  if (SOCIAL.has(k)) return 'social';
  return 'text';
}
