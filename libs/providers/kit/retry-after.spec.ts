import { describe, expect, it } from '@jest/globals';
import { parseRetryAfter } from './retry-after.js';

/**
 * A `Date` header as Okta sent it, from the recorded traffic
 * (../shared/fixtures/okta/vcr/terraform-provider-okta/TestAccResourceOktaAppSignOnPolicyRules_Issue2797/classic-00.yaml,
 * interaction 0): the IMF-fixdate form an HTTP-date `Retry-After` takes too.
 */
const RECORDED_DATE = 'Tue, 09 Jun 2026 13:23:58 GMT';
const SERVER_NOW = Date.parse(RECORDED_DATE);

describe('parseRetryAfter (RFC 9110 §10.2.3)', () => {
  it('reads delay-seconds from the arrival of the answer', () => {
    expect(parseRetryAfter({ 'retry-after': '120' }, SERVER_NOW)).toBe(SERVER_NOW + 120_000);
    expect(parseRetryAfter({ 'retry-after': '0' }, SERVER_NOW)).toBe(SERVER_NOW);
  });

  it('reads fractional seconds, as Microsoft Graph sends them ("Retry-After: 2.128")', () => {
    expect(parseRetryAfter({ 'retry-after': '2.128' }, SERVER_NOW)).toBe(SERVER_NOW + 2128);
  });

  it('reads an HTTP-date in the IMF-fixdate, RFC 850 and asctime forms (§5.6.7)', () => {
    const at = Date.parse('Tue, 09 Jun 2026 13:24:28 GMT');
    const answer = { date: RECORDED_DATE };
    expect(parseRetryAfter({ ...answer, 'retry-after': 'Tue, 09 Jun 2026 13:24:28 GMT' }, SERVER_NOW)).toBe(
      at,
    );
    expect(parseRetryAfter({ ...answer, 'retry-after': 'Tuesday, 09-Jun-26 13:24:28 GMT' }, SERVER_NOW)).toBe(
      at,
    );
    expect(parseRetryAfter({ ...answer, 'retry-after': 'Tue Jun  9 13:24:28 2026' }, SERVER_NOW)).toBe(at);
  });

  it("moves an HTTP-date onto the local clock through the answer's Date header", () => {
    // The local clock runs 5 s ahead of the server's: the retry comes 5 s later by it.
    const sut = parseRetryAfter(
      { date: RECORDED_DATE, 'retry-after': 'Tue, 09 Jun 2026 13:24:28 GMT' },
      SERVER_NOW + 5000,
    );
    expect(sut).toBe(SERVER_NOW + 35_000);
  });

  it('takes the first of repeated values, trimmed', () => {
    expect(parseRetryAfter({ 'retry-after': [' 3 ', '9'] }, SERVER_NOW)).toBe(SERVER_NOW + 3000);
  });

  it('returns null for an absent, negative or unreadable value', () => {
    expect(parseRetryAfter({}, SERVER_NOW)).toBeNull();
    expect(parseRetryAfter({ 'retry-after': '' }, SERVER_NOW)).toBeNull();
    expect(parseRetryAfter({ 'retry-after': '-5' }, SERVER_NOW)).toBeNull();
    expect(parseRetryAfter({ 'retry-after': 'soon' }, SERVER_NOW)).toBeNull();
    expect(parseRetryAfter({ 'retry-after': '2026-06-09T13:24:28Z' }, SERVER_NOW)).toBeNull();
  });
});
