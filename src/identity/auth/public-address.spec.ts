import { describe, expect, it } from '@jest/globals';
import { isAllowedAddress } from './public-address.js';

describe('isAllowedAddress', () => {
  it.each(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:93.184.215.14'])(
    'allows public %s',
    (address) => {
      expect(isAllowedAddress(address, false)).toBe(true);
    },
  );

  it.each([
    ['loopback', '127.0.0.1'],
    ['loopback elsewhere in 127/8', '127.8.9.10'],
    ['IPv6 loopback', '::1'],
    ['unspecified', '0.0.0.0'],
    ['IPv6 unspecified', '::'],
    ['RFC 1918 10/8', '10.1.2.3'],
    ['RFC 1918 172.16/12', '172.31.255.254'],
    ['RFC 1918 192.168/16', '192.168.1.1'],
    ['shared address space', '100.64.0.1'],
    ['link-local (cloud metadata)', '169.254.169.254'],
    ['IPv6 link-local', 'fe80::1'],
    ['unique local', 'fd12:3456::1'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv4-mapped private, hex form', '::ffff:a00:1'],
    ['NAT64 of a private address', '64:ff9b::a00:1'],
    ['multicast', '239.1.1.1'],
    ['documentation', '192.0.2.7'],
    ['not an IP literal', 'example.com'],
  ])('refuses %s (%s)', (_kind, address) => {
    expect(isAllowedAddress(address, false)).toBe(false);
  });

  it('allows loopback, and only loopback, with the test allowance', () => {
    expect(isAllowedAddress('127.0.0.1', true)).toBe(true);
    expect(isAllowedAddress('::1', true)).toBe(true);
    expect(isAllowedAddress('10.0.0.1', true)).toBe(false);
    expect(isAllowedAddress('169.254.169.254', true)).toBe(false);
  });
});
