import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';

/** The rules of one-time e-mail codes (docs/auth.md). */
export const EMAIL_CODE_RULES = {
  /** Lifetime of a code, seconds. */
  ttlSeconds: 600,
  /** Wrong tries after which the code is void. */
  maxFailedAttempts: 5,
  /** Codes one address may be sent per window. */
  sendsPerWindow: 5,
  /** The send budget's window, seconds. */
  sendWindowSeconds: 3600,
} as const;

/** Six decimal digits, uniform, from the CSPRNG (`crypto.randomInt` rejects modulo bias). */
export function generateCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}

/**
 * The stored form of a code: HMAC-SHA256 under the sign-in key, over the address and the code,
 * base64url. Keyed, because six digits are guessed from a plain hash in a million tries; bound
 * to the address, so a hash copied to another row matches nothing.
 * @param email normalized address.
 */
export function hashCode(key: Buffer, email: string, code: string): string {
  return createHmac('sha256', key).update(`${email}\n${code}`, 'utf8').digest('base64url');
}

/** True when `code` hashes to `storedHash`; the digests are compared in constant time. */
export function codeMatches(key: Buffer, email: string, code: string, storedHash: string): boolean {
  const expected = Buffer.from(storedHash, 'base64url');
  const actual = Buffer.from(hashCode(key, email, code), 'base64url');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
