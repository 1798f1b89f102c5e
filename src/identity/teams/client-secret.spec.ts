import { describe, expect, it } from '@jest/globals';
import {
  clientSecretMatches,
  generateClientId,
  generateClientSecret,
  hashClientSecret,
} from './client-secret.js';

describe('client secrets', () => {
  it('makes ids of ic_ and 22 base64url characters, never twice the same', () => {
    const ids = Array.from({ length: 50 }, generateClientId);
    for (const id of ids) expect(id).toMatch(/^ic_[A-Za-z0-9_-]{22}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('makes secrets of 32 random bytes in base64url', () => {
    const secret = generateClientSecret();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
  });

  it('stores a labelled SHA-256 digest that does not contain the secret', () => {
    const secret = generateClientSecret();
    const sut = hashClientSecret(secret);
    expect(sut).toMatch(/^sha256:[A-Za-z0-9_-]{43}$/);
    expect(sut).not.toContain(secret);
  });

  it('matches the right secret only', () => {
    const secret = generateClientSecret();
    const stored = hashClientSecret(secret);
    expect(clientSecretMatches(secret, stored)).toBe(true);
    expect(clientSecretMatches(`${secret}x`, stored)).toBe(false);
    expect(clientSecretMatches('', stored)).toBe(false);
  });

  it('never matches a stored value of another scheme or a truncated digest', () => {
    const secret = generateClientSecret();
    const stored = hashClientSecret(secret);
    expect(clientSecretMatches(secret, stored.replace('sha256:', 'md5:'))).toBe(false);
    expect(clientSecretMatches(secret, stored.slice(0, -4))).toBe(false);
    expect(clientSecretMatches(secret, secret)).toBe(false);
  });
});
