import { hash } from 'node:crypto';

import { canonicalJson } from './canonical-json.js';

// Hashing and its canonical form are used together (diff compares either); one import serves both.
export { canonicalJson };

/**
 * Content hash of a record's `data`: SHA-256 (FIPS 180-4), lowercase hex, of its canonical JSON
 * (RFC 8785 style, see `canonicalJson`) with members named in `volatileFields` left out at any
 * depth. Hashes compare only when made with the same field list (snapshots record theirs).
 * @throws TypeError when `data` is not JSON data
 */
export function contentHash(data: unknown, volatileFields: ReadonlySet<string> | readonly string[]): string {
  const omit = volatileFields instanceof Set ? volatileFields : new Set(volatileFields);
  // One-shot crypto.hash: a Hash object per record cost more than the digest itself.
  return hash('sha256', canonicalJson(data, omit), 'hex');
}
