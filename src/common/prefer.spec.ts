import { describe, expect, it } from '@jest/globals';
import { prefersRespondAsync } from './prefer.js';

describe('prefersRespondAsync (RFC 7240)', () => {
  it('finds respond-async among other preferences, whatever its case and parameters', () => {
    expect(prefersRespondAsync('respond-async')).toBe(true);
    expect(prefersRespondAsync('return=minimal, Respond-Async; x=1, wait=10')).toBe(true);
  });

  it('is false without the header or the preference', () => {
    expect(prefersRespondAsync(undefined)).toBe(false);
    expect(prefersRespondAsync('return=representation, wait=5')).toBe(false);
    expect(prefersRespondAsync('respond-asynchronously')).toBe(false);
  });
});
