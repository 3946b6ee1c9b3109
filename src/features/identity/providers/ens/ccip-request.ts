import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { type CcipRequestParameters, ccipRequest, HttpRequestError } from 'viem';
import { isInternalAddress } from '../../../../platform/upstream/private-address.js';

export type GuardedCcipRequestOptions = {
  /** Let gateways on loopback and private networks be called (tests with a loopback gateway). */
  allowPrivateHosts?: boolean;
};

/** Whether a gateway URL points at the server itself or a private network (checked on every resolved address). */
async function isPrivateUrl(url: string): Promise<boolean> {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return false; // viem rejects the malformed URL itself
  }
  if (isIP(host)) return isInternalAddress(host);
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  try {
    const addresses = await lookup(host, { all: true, verbatim: true });
    return addresses.some((a) => isInternalAddress(a.address));
  } catch {
    return false; // unresolvable: the request itself fails and is reported as a gateway failure
  }
}

/**
 * viem's CCIP-Read gateway request (EIP-3668) with one more rule for a server: the gateway URLs come
 * from whatever resolver a name points to, i.e. from anyone, so URLs reaching the server itself or a
 * private network are refused unless allowed; otherwise a name could make the service POST into the
 * operator's network. (A DNS answer that changes between this check and the fetch is not covered.)
 *
 * @example
 * createPublicClient({ transport, ccipRead: { request: guardedCcipRequest({}) } })
 */
export function guardedCcipRequest({ allowPrivateHosts = false }: GuardedCcipRequestOptions) {
  return async (parameters: CcipRequestParameters) => {
    if (allowPrivateHosts) return ccipRequest(parameters);
    const refused = await Promise.all(parameters.urls.map(isPrivateUrl));
    const urls = parameters.urls.filter((_, i) => !refused[i]);
    if (urls.length === 0) {
      throw new HttpRequestError({
        details: 'CCIP-Read gateway on a private network refused',
        url: parameters.urls[0] ?? '',
      });
    }
    return ccipRequest({ ...parameters, urls });
  };
}
