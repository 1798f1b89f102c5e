import { createHash, randomBytes } from 'node:crypto';

import { KEY_BYTES } from './aes-gcm.js';
import { InvalidMasterKeyError } from './crypto-errors.js';

/** One master key and the id that ciphertexts use to name it. */
export interface MasterKeyEntry {
  kid: string;
  key: Buffer;
}

/** Key ids travel inside dotted tokens and `kid:key` lists, so `.`, `:` and `,` are excluded. */
const KID_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
const HEX_KEY_PATTERN = /^[0-9a-fA-F]{64}$/;
const BASE64_PATTERN = /^[A-Za-z0-9+/_-]+={0,2}$/;

/**
 * Parses a master key specification (the `MASTER_KEY` setting) into entries, active key first.
 *
 * Accepted forms:
 * - one key, 32 bytes as 64 hex characters or as base64 / base64url (padding optional); its key id
 *   is the first 8 hex characters of SHA-256 of the key bytes, so it is stable across restarts;
 * - a list `kid1:key1,kid2:key2` (each key hex or base64), the first being the active key that
 *   encrypts; the others only decrypt. Key ids match `[A-Za-z0-9_-]{1,32}` and are unique.
 *
 * @throws InvalidMasterKeyError naming the entry and the problem, never the key material
 */
export function parseMasterKeySpec(spec: string): MasterKeyEntry[] {
  const trimmed = spec.trim();
  if (trimmed === '') {
    throw new InvalidMasterKeyError(
      'master key is empty: expected a 32-byte key (hex or base64) or "kid:key,..."',
    );
  }
  if (!trimmed.includes(':')) {
    const key = decodeKey(trimmed, 'master key');
    return [{ kid: deriveKeyId(key), key }];
  }
  const entries = trimmed.split(',').map((item, i) => parseEntry(item.trim(), i + 1));
  const seen = new Set<string>();
  for (const { kid } of entries) {
    if (seen.has(kid)) {
      throw new InvalidMasterKeyError(`master key list: key id "${kid}" appears more than once`);
    }
    seen.add(kid);
  }
  return entries;
}

/**
 * A fresh random 32-byte master key as base64, or as a `kid:base64` list entry when a key id is
 * given (prepend it to `MASTER_KEY` to rotate: the new key becomes active, old ones still decrypt).
 * @throws InvalidMasterKeyError when the key id is not `[A-Za-z0-9_-]{1,32}`
 */
export function generateMasterKey(kid?: string): string {
  const key = randomBytes(KEY_BYTES).toString('base64');
  if (kid === undefined) return key;
  assertKeyId(kid, 'generateMasterKey');
  return `${kid}:${key}`;
}

/** Key id of a single unnamed key: first 8 hex characters of SHA-256(key). */
export function deriveKeyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/** @throws InvalidMasterKeyError when `kid` cannot be embedded in tokens and lists */
export function assertKeyId(kid: string, where: string): void {
  if (!KID_PATTERN.test(kid)) {
    throw new InvalidMasterKeyError(`${where}: key id "${kid}" must match [A-Za-z0-9_-]{1,32}`);
  }
}

function parseEntry(item: string, position: number): MasterKeyEntry {
  const where = `master key list entry ${position}`;
  const colon = item.indexOf(':');
  if (colon < 0) {
    throw new InvalidMasterKeyError(`${where}: expected "kid:key"`);
  }
  const kid = item.slice(0, colon).trim();
  assertKeyId(kid, where);
  return { kid, key: decodeKey(item.slice(colon + 1).trim(), `${where} (key id "${kid}")`) };
}

function decodeKey(text: string, where: string): Buffer {
  if (HEX_KEY_PATTERN.test(text)) return Buffer.from(text, 'hex');
  if (!BASE64_PATTERN.test(text)) {
    throw new InvalidMasterKeyError(`${where}: not hex or base64`);
  }
  const key = Buffer.from(text, 'base64');
  if (key.length !== KEY_BYTES) {
    throw new InvalidMasterKeyError(
      `${where}: must be ${KEY_BYTES} bytes (64 hex or 44 base64 characters), got ${key.length} bytes`,
    );
  }
  return key;
}
