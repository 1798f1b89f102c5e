import { describe, expect, it } from '@jest/globals';
import { parseRateLimitHeaders } from './okta-rate-limit-signal.js';
import { oktaRateLimitHeaders as headers } from './testing/rate-limit-headers.js';

const T0 = Date.parse('2026-11-22T10:00:00Z');

describe('parseRateLimitHeaders', () => {
  it('reads the three headers, reset in epoch seconds', () => {
    expect(parseRateLimitHeaders(headers(600, 599, T0 + 60_000), T0)).toEqual({
      limit: 600,
      remaining: 599,
      resetEpochSeconds: (T0 + 60_000) / 1000,
      resetAtMs: T0 + 60_000,
    });
  });

  it('moves the reset onto the local clock through the Date header', () => {
    // Local clock 5 s ahead of Okta: the reset happens 5 s later by our clock.
    const sut = parseRateLimitHeaders(headers(600, 10, T0 + 60_000, T0), T0 + 5000);
    expect(sut?.resetAtMs).toBe(T0 + 65_000);
  });

  it('returns null when a header is missing or not a number', () => {
    expect(parseRateLimitHeaders({}, T0)).toBeNull();
    expect(
      parseRateLimitHeaders({ ...headers(600, 1, T0), 'x-rate-limit-remaining': 'many' }, T0),
    ).toBeNull();
  });
});
