// The module itself, not the package index: the index loads @nestjs/throttler's CommonJS guard (see rate-limit.guard.ts).
import { normalizeIp } from '@nestjs/throttler/dist/ip.js';

/**
 * The address rate limits are counted against (spec "Limits": per IP).
 *
 * The socket's peer is the client unless the service runs behind `trustedHops` reverse proxies
 * that each append the address they received from to `X-Forwarded-For` (the de facto header,
 * MDN; RFC 7239 §5.2 describes the same chain for `Forwarded: for=`). Reading the chain from
 * the right, the entry `trustedHops` places left of the socket is the client: everything
 * further left was written by the client itself and can be forged. With `trustedHops` 0 the
 * header is ignored entirely. A chain shorter than `trustedHops` yields its leftmost entry.
 *
 * The result is normalized as @nestjs/throttler does: IPv4-mapped IPv6 addresses become IPv4,
 * and other IPv6 addresses are reduced to their /64 network, since one host usually holds a
 * whole /64 and could otherwise rotate addresses to dodge the limit.
 * @param forwardedFor the raw header value(s); repeated headers are one list (RFC 9110 §5.3).
 */
export function resolveClientIp(
  socketAddress: string | undefined,
  forwardedFor: string | string[] | undefined,
  trustedHops: number,
): string {
  const peer = socketAddress ?? 'unknown';
  if (trustedHops === 0 || forwardedFor === undefined) return normalizeIp(peer);
  const chain = [forwardedFor]
    .flat()
    .flatMap((value) => value.split(','))
    .map((entry) => entry.trim())
    .filter(Boolean);
  const addresses = [...chain, peer];
  return normalizeIp(addresses[Math.max(0, addresses.length - 1 - trustedHops)]);
}
