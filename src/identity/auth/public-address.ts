import { BlockList, isIP } from 'node:net';

/**
 * Addresses that are not on the public Internet: IANA's special-purpose registries (RFC 6890
 * and its updates) for IPv4 and IPv6: this network, private (RFC 1918), shared (RFC 6598),
 * loopback, link-local, documentation, benchmarking, multicast, reserved, unique local
 * (RFC 4193), IPv4-mapped and NAT64 forms (which could reach any of the IPv4 ones).
 * Two lists, because a BlockList also matches IPv4 addresses against its IPv6 rules in their
 * IPv4-mapped form, which would put every IPv4 address under `::ffff:0:0/96`.
 */
const NOT_PUBLIC_V4 = new BlockList();
const NOT_PUBLIC_V6 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NOT_PUBLIC_V4.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 127],
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC_V6.addSubnet(network, prefix, 'ipv6');
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** `::ffff:a.b.c.d` as `a.b.c.d`, so an IPv4-mapped address is judged as the IPv4 address it is. */
function unmapped(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1] : address;
}

/**
 * True when `address` (an IP literal) may be called by server-side fetches of client-supplied
 * URLs (SSRF, OWASP SSRF Prevention Cheat Sheet): a public unicast address, or a loopback
 * address when `allowLoopback` (tests only). Anything that is not an IP literal is refused.
 */
export function isAllowedAddress(address: string, allowLoopback: boolean): boolean {
  const ip = unmapped(address);
  const family = isIP(ip);
  if (family === 0) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (allowLoopback && LOOPBACK.check(ip, type)) return true;
  return !(family === 4 ? NOT_PUBLIC_V4 : NOT_PUBLIC_V6).check(ip, type);
}
