export type AvatarUrlOptions = {
  /** Normalized full name the record belongs to. */
  name: string;
  /**
   * Service that renders NFT avatars (`eip155:…/erc721:…`) at `<service>/<name>`, such as the ENS
   * metadata service for mainnet. Without one an NFT avatar has no URL: resolving it would take
   * an on-chain tokenURI read and a metadata fetch this provider does not do.
   */
  avatarService?: string | null;
  /** HTTP gateway for `ipfs://` and `ipns://` records. */
  ipfsGateway?: string;
};

/**
 * Turns an ENSIP-12 `avatar` text record into a URL a browser can load, or null when it cannot.
 *
 * @example
 * avatarUrl('ipfs://bafy…/a.png', { name: 'alice.eth' }) // 'https://ipfs.io/ipfs/bafy…/a.png'
 */
export function avatarUrl(
  record: string,
  { name, avatarService, ipfsGateway = 'https://ipfs.io' }: AvatarUrlOptions,
): string | null {
  const value = record.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
  switch (scheme) {
    case 'https':
    case 'http':
      return URL.canParse(value) ? value : null;
    case 'data':
      return /^data:image\//i.test(value) ? value : null;
    case 'ipfs':
    case 'ipns': {
      // `ipfs://ipfs/<cid>` is a common mistake for `ipfs://<cid>`; both mean the same content.
      const path = value.slice(`${scheme}://`.length).replace(/^ipfs\//i, '');
      return path ? `${ipfsGateway}/${scheme}/${path}` : null;
    }
    case 'ar': {
      const id = value.slice('ar://'.length);
      return id ? `https://arweave.net/${id}` : null;
    }
    case 'eip155':
      return avatarService ? `${avatarService}/${encodeURIComponent(name)}` : null;
    default:
      return null;
  }
}
