/**
 * Which IP addresses an outbound call chosen by a caller (a webhook URL, a CCIP-Read gateway named by a
 * resolver) must not reach: the service's own host and networks (SSRF).
 */
import { BlockList, isIP } from 'node:net';

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** Loopback, private, link-local, unique-local, carrier-grade NAT, "this network", multicast and reserved. */
const internal = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  internal.addSubnet(net, bits, 'ipv4');
// Ranges that embed an IPv4 address (IPv4-compatible, SIIT-translated, 6to4, NAT64 well-known and
// local-use, Teredo) are refused whole, whatever the address inside: each is a way to reach an IPv4
// host, internal ones included, under an IPv6 name that the IPv4 rules above would not see.
for (const [net, bits] of [
  ['::', 96],
  ['::ffff:0:0:0', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['2001::', 32],
  ['2001:db8::', 32],
  ['2002::', 16],
] as const)
  internal.addSubnet(net, bits, 'ipv6');

/** An IPv4 address written as IPv6 (::ffff:10.0.0.1) is checked as the IPv4 address it is. */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return { address: mapped[1], family: 'ipv4' };
  return { address, family: isIP(address) === 4 ? 'ipv4' : 'ipv6' };
}

export function isLoopbackAddress(ip: string): boolean {
  const { address, family } = unmapped(ip);
  return loopback.check(address, family);
}

/** Whether an IP address is loopback, private, link-local or otherwise not a public host. */
export function isInternalAddress(ip: string): boolean {
  const { address, family } = unmapped(ip);
  return internal.check(address, family);
}
