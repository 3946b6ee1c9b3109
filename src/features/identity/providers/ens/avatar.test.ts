import { describe, expect, it } from 'vitest';
import { avatarUrl } from './avatar.js';

describe('avatarUrl', () => {
  const name = 'alice.eth';

  it('keeps http(s) and image data URLs', () => {
    expect(avatarUrl('https://example.com/a.png', { name })).toBe('https://example.com/a.png');
    expect(avatarUrl('data:image/png;base64,AAAA', { name })).toBe('data:image/png;base64,AAAA');
    expect(avatarUrl('data:text/html,<script>', { name })).toBeNull();
  });

  it('serves IPFS and Arweave records through HTTP gateways', () => {
    expect(avatarUrl('ipfs://bafybeib/a.png', { name })).toBe('https://ipfs.io/ipfs/bafybeib/a.png');
    expect(avatarUrl('ipfs://ipfs/bafybeib', { name })).toBe('https://ipfs.io/ipfs/bafybeib');
    expect(avatarUrl('ar://abc', { name })).toBe('https://arweave.net/abc');
  });

  it('renders NFT avatars only through a configured service', () => {
    const nft = 'eip155:1/erc721:0xb47e3cd837dDF8e4c57F05d70Ab865de6e193BBB/1';
    expect(avatarUrl(nft, { name })).toBeNull();
    expect(avatarUrl(nft, { name, avatarService: 'https://metadata.ens.domains/mainnet/avatar' })).toBe(
      'https://metadata.ens.domains/mainnet/avatar/alice.eth',
    );
  });

  it('gives nothing for records that are not locations', () => {
    expect(avatarUrl('just text', { name })).toBeNull();
    expect(avatarUrl('javascript:alert(1)', { name })).toBeNull();
  });
});
