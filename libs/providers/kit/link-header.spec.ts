import { describe, expect, it } from '@jest/globals';
import { nextLinkUrl } from './link-header.js';

const request = new URL('https://acme.okta.com/api/v1/users?limit=200');

describe('nextLinkUrl', () => {
  it('finds next among repeated Link headers, as Okta sends them', () => {
    const sut = nextLinkUrl(
      [
        '<https://acme.okta.com/api/v1/users?limit=200>; rel="self"',
        '<https://acme.okta.com/api/v1/users?after=00uvo7s8abwP37lV81d7&limit=200>; rel="next"',
      ],
      request,
    );
    expect(sut?.href).toBe('https://acme.okta.com/api/v1/users?after=00uvo7s8abwP37lV81d7&limit=200');
  });

  it('splits comma-separated links but not commas inside the target or quotes', () => {
    const sut = nextLinkUrl(
      '<https://acme.okta.com/a?x=1,2>; rel="self"; title="a, b", <https://acme.okta.com/b?y=3,4>; rel=next',
      request,
    );
    expect(sut?.href).toBe('https://acme.okta.com/b?y=3,4');
  });

  it('accepts several relation types, any case, and only the first rel parameter', () => {
    expect(nextLinkUrl('<https://acme.okta.com/n>; rel="prefetch NEXT"', request)?.href).toBe(
      'https://acme.okta.com/n',
    );
    expect(nextLinkUrl('<https://acme.okta.com/n>; rel="self"; rel="next"', request)).toBeNull();
  });

  it('resolves relative targets against the request URL and keeps the query opaque', () => {
    expect(
      nextLinkUrl('</api/v1/users?after=a%2Bb&search=status+eq+%22X%22>; rel="next"', request)?.href,
    ).toBe('https://acme.okta.com/api/v1/users?after=a%2Bb&search=status+eq+%22X%22');
  });

  it('returns null without a next link', () => {
    expect(nextLinkUrl(undefined, request)).toBeNull();
    expect(nextLinkUrl('<https://acme.okta.com/api/v1/users>; rel="self"', request)).toBeNull();
    expect(nextLinkUrl('garbage', request)).toBeNull();
  });
});
