import { describe, expect, it } from '@jest/globals';
import { formUrlEncode } from './client-credentials.js';

describe('formUrlEncode (RFC 6749 §2.3.1 client_secret_basic)', () => {
  it('leaves unreserved characters alone', () => {
    expect(formUrlEncode('0oa1nkheCuDn82XVI0g4')).toBe('0oa1nkheCuDn82XVI0g4');
    expect(formUrlEncode('a-b_c.d*e')).toBe('a-b_c.d*e');
  });

  it('encodes a colon, so id and secret split unambiguously, and spaces as +', () => {
    expect(formUrlEncode('se:cr et')).toBe('se%3Acr+et');
  });

  it('encodes reserved and non-ASCII characters as UTF-8 percent-escapes', () => {
    expect(formUrlEncode('a+b/c=d&é~')).toBe('a%2Bb%2Fc%3Dd%26%C3%A9%7E');
  });
});
