import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const HASH_PREFIX = 'sha256:';

/** A new client id: `ic_` ("integration client") + 22 base64url characters (128 random bits). */
export function generateClientId(): string {
  return `ic_${randomBytes(16).toString('base64url')}`;
}

/** A new client secret: 32 random bytes (256 bits), base64url, 43 characters. Shown once, never stored. */
export function generateClientSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The stored form of a client secret: `sha256:<base64url digest>`.
 *
 * A plain SHA-256 is enough here, unlike for passwords: the secret is 256 bits from the CSPRNG,
 * so there is no dictionary to try and no hash speed makes 2^256 guesses feasible (RFC 6819
 * §5.1.4.1.3 asks for hashed secrets; slow KDFs exist for low-entropy input). A fast hash also
 * keeps the token endpoint cheap, where scrypt would hand callers a CPU lever for denial of service.
 * The prefix names the scheme so it can change later without guessing.
 */
export function hashClientSecret(secret: string): string {
  return HASH_PREFIX + createHash('sha256').update(secret, 'utf8').digest('base64url');
}

/**
 * True when `secret` hashes to `storedHash`; compares digests in constant time, and a stored
 * value of an unknown scheme never matches.
 */
export function clientSecretMatches(secret: string, storedHash: string): boolean {
  if (!storedHash.startsWith(HASH_PREFIX)) return false;
  const expected = Buffer.from(storedHash.slice(HASH_PREFIX.length), 'base64url');
  const actual = createHash('sha256').update(secret, 'utf8').digest();
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
