/**
 * Where a webhook may point: an https URL of a public host. A partner must not make cipgate call its own
 * network (SSRF), so every address the host resolves to is checked — at registration and again on
 * every delivery, on the address actually connected to, so a name that re-resolves to a private
 * address later (DNS rebinding) is refused too.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { badInput, quoted } from '../../../platform/errors.js';
import { isInternalAddress, isLoopbackAddress } from '../../../platform/upstream/private-address.js';

export interface TargetPolicy {
  /** Tests only: http:// and loopback addresses are accepted, nothing else internal. */
  allowHttpLoopback: boolean;
}

/**
 * Why an address may not be called, or null when it may. The address itself is not named: the partner
 * would learn what cipgate's resolver answers for names of its internal network.
 */
export function refusedAddress(ip: string, policy: TargetPolicy): string | null {
  if (policy.allowHttpLoopback && isLoopbackAddress(ip)) return null;
  return isInternalAddress(ip) ? 'resolves to a loopback, private, link-local or otherwise non-public address' : null;
}

/** The longest URL stored, in its normalized form (what is stored: `bridge_webhook.url` is varchar(2048)). */
export const MAX_URL_LENGTH = 2048;

/** Parses and checks a webhook URL's form (no DNS): a free 400 for anything else. */
export function parseTarget(raw: string, policy: TargetPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badInput(`url must be an absolute https URL, got ${quoted(raw)}`);
  }
  // Normalizing can lengthen a URL (percent-encoding, punycode): the stored form is what must fit.
  if (raw.length > MAX_URL_LENGTH || url.href.length > MAX_URL_LENGTH) {
    throw badInput(`url must be at most ${MAX_URL_LENGTH} characters once normalized (percent-encoded)`);
  }
  if (url.username || url.password) throw badInput('url must not carry credentials');
  if (url.protocol === 'http:' && !policy.allowHttpLoopback) throw badInput('url must use https');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw badInput('url must use https');
  return url;
}

const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** Resolves the host and refuses the URL when any address it resolves to is internal. */
export async function checkTarget(raw: string, policy: TargetPolicy): Promise<URL> {
  const url = parseTarget(raw, policy);
  const host = hostOf(url);
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await resolveAll(host)).map((a) => a.address);
    } catch {
      throw badInput(`url host ${quoted(host)} does not resolve`);
    }
  }
  if (addresses.length === 0) throw badInput(`url host ${quoted(host)} does not resolve`);
  for (const address of addresses) {
    const refused = refusedAddress(address, policy);
    if (refused) throw badInput(`url host ${quoted(host)} ${refused}`);
  }
  // http stays refused for anything but loopback, whatever the test setting.
  if (url.protocol === 'http:' && !addresses.every(isLoopbackAddress)) throw badInput('url must use https');
  return url;
}

const resolveAll = (host: string) =>
  new Promise<LookupAddress[]>((resolve, reject) =>
    dnsLookup(host, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http(s).request that refuses internal addresses: the check applies to the address the
 * socket connects to, not to an earlier resolution.
 */
export function guardedLookup(policy: TargetPolicy) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const refused = addresses.map((a) => refusedAddress(a.address, policy)).find(Boolean);
      if (refused) return callback(Object.assign(new Error(`webhook host ${refused}`), { code: 'EREFUSED' }), []);
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      if (!first) return callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };
}
