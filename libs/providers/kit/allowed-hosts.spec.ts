import { describe, expect, it } from '@jest/globals';
import { ProviderHostNotAllowedError } from '@libs/providers/provider-errors.js';
import { assertProviderUrl, isAllowedHost } from './allowed-hosts.js';

const OKTA_HOSTS = ['*.okta.com', '*.oktapreview.com', '*.okta-emea.com', '127.0.0.1'];

describe('isAllowedHost', () => {
  it('matches exact hosts', () => {
    expect(isAllowedHost('login.acme.example', ['login.acme.example'])).toBe(true);
    expect(isAllowedHost('other.acme.example', ['login.acme.example'])).toBe(false);
  });

  it('matches subdomains of a wildcard and nothing else', () => {
    expect(isAllowedHost('acme.okta.com', OKTA_HOSTS)).toBe(true);
    expect(isAllowedHost('acme.eu.okta.com', OKTA_HOSTS)).toBe(true);
    expect(isAllowedHost('acme.oktapreview.com', OKTA_HOSTS)).toBe(true);
    expect(isAllowedHost('okta.com', OKTA_HOSTS)).toBe(false);
    expect(isAllowedHost('okta.com.evil.io', OKTA_HOSTS)).toBe(false);
    expect(isAllowedHost('evilokta.com', OKTA_HOSTS)).toBe(false);
    expect(isAllowedHost('acme.okta.com.evil.io', OKTA_HOSTS)).toBe(false);
  });

  it('ignores case, ports and a trailing dot', () => {
    expect(isAllowedHost('ACME.Okta.COM', OKTA_HOSTS)).toBe(true);
    expect(isAllowedHost('acme.okta.com:443', OKTA_HOSTS)).toBe(true);
    expect(isAllowedHost('acme.okta.com.', OKTA_HOSTS)).toBe(true);
    expect(isAllowedHost('127.0.0.1:8443', OKTA_HOSTS)).toBe(true);
    expect(isAllowedHost('acme.okta.com', ['*.OKTA.com:443'])).toBe(true);
  });

  it('allows IP literals only when listed exactly', () => {
    expect(isAllowedHost('127.0.0.1', OKTA_HOSTS)).toBe(true);
    expect(isAllowedHost('127.0.0.2', OKTA_HOSTS)).toBe(false);
    expect(isAllowedHost('10.0.0.1', ['*.0.0.1'])).toBe(false);
    expect(isAllowedHost('[::1]:8443', ['::1'])).toBe(true);
    expect(isAllowedHost('[::1]', ['[::1]'])).toBe(true);
    expect(isAllowedHost('::1', OKTA_HOSTS)).toBe(false);
  });

  it('matches nothing with malformed patterns or hosts', () => {
    expect(isAllowedHost('acme.okta.com', ['*'])).toBe(false);
    expect(isAllowedHost('acme.okta.com', ['acme.*.com'])).toBe(false);
    expect(isAllowedHost('acme.okta.com', ['*.'])).toBe(false);
    expect(isAllowedHost('', OKTA_HOSTS)).toBe(false);
  });
});

describe('assertProviderUrl', () => {
  const origin = 'https://acme.okta.com';

  it('accepts URLs of the org origin', () => {
    expect(() =>
      assertProviderUrl(new URL('https://acme.okta.com/api/v1/users?after=x'), origin, OKTA_HOSTS),
    ).not.toThrow();
  });

  it('refuses another origin, even on an allowed host', () => {
    expect(() =>
      assertProviderUrl(new URL('https://other.okta.com/api/v1/users'), origin, OKTA_HOSTS),
    ).toThrow(ProviderHostNotAllowedError);
    expect(() =>
      assertProviderUrl(new URL('https://acme.okta.com:8443/api/v1/users'), origin, OKTA_HOSTS),
    ).toThrow(ProviderHostNotAllowedError);
  });

  it('refuses plain http and hosts off the list', () => {
    expect(() => assertProviderUrl(new URL('http://acme.okta.com/api/v1/users'), origin, OKTA_HOSTS)).toThrow(
      ProviderHostNotAllowedError,
    );
    expect(() => assertProviderUrl(new URL('https://evil.io/api/v1/users'), origin, OKTA_HOSTS)).toThrow(
      ProviderHostNotAllowedError,
    );
  });
});
