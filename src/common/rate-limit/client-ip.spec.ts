import { describe, expect, it } from '@jest/globals';
import { resolveClientIp } from './client-ip.js';

describe('resolveClientIp', () => {
  it('is the socket address when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(resolveClientIp('203.0.113.9', '198.51.100.1', 0)).toBe('203.0.113.9');
  });

  it('takes the entry the last trusted proxy appended', () => {
    // client 198.51.100.7 -> proxy 10.0.0.1 -> proxy 10.0.0.2 -> service
    expect(resolveClientIp('10.0.0.2', '198.51.100.7, 10.0.0.1', 2)).toBe('198.51.100.7');
    expect(resolveClientIp('10.0.0.2', '198.51.100.7, 10.0.0.1', 1)).toBe('10.0.0.1');
  });

  it('ignores what the client forged left of the trusted part of the chain', () => {
    expect(resolveClientIp('10.0.0.1', '1.2.3.4, 198.51.100.7', 1)).toBe('198.51.100.7');
  });

  it('reads repeated headers as one list, and a short chain as its leftmost entry', () => {
    expect(resolveClientIp('10.0.0.2', ['198.51.100.7', '10.0.0.1'], 2)).toBe('198.51.100.7');
    expect(resolveClientIp('10.0.0.2', '198.51.100.7', 5)).toBe('198.51.100.7');
  });

  it('is the socket address when a trusted proxy sent no header', () => {
    expect(resolveClientIp('10.0.0.2', undefined, 1)).toBe('10.0.0.2');
  });

  it('folds IPv4-mapped IPv6 into IPv4 and IPv6 into its /64', () => {
    expect(resolveClientIp('::ffff:192.0.2.5', undefined, 0)).toBe('192.0.2.5');
    expect(resolveClientIp('2001:db8:1:2:aaaa::1', undefined, 0)).toBe('2001:db8:1:2::/64');
    expect(resolveClientIp('2001:db8:1:2:bbbb::9', undefined, 0)).toBe('2001:db8:1:2::/64');
  });
});
