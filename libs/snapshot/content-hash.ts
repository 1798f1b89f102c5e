import { hash } from 'node:crypto';

import { canonicalJson } from './canonical-json.js';

// Hashing and its canonical form are used together (diff compares either); one import serves both.
export { canonicalJson };

/**
 * Okta fields that change without the configuration changing. They stay in stored records and
 * are left out of content hashes only, so a snapshot diff does not report a user as changed
 * because they logged in.
 * - `_links`: hypermedia URLs derived from ids and the org's domain;
 * - `_embedded`: copies of other resources pulled in by `expand` (group `stats`, an app's user):
 *   derived data that changes with those other objects, which the snapshot holds as records of
 *   their own (memberships, assignments);
 * - `lastLogin`, `lastUpdated`, `lastMembershipUpdated`, `statusChanged`, `passwordChanged`,
 *   `activated`: timestamps of events, not settings (`status` itself stays in the hash);
 * - `transitioningToStatus`: set only while Okta is carrying out a lifecycle change, read-only,
 *   and cleared by Okta itself; the status it leads to shows up in `status` once done.
 * Names match at any depth, so a custom profile attribute of one of these names is left out too.
 */
export const OKTA_VOLATILE_FIELDS: readonly string[] = Object.freeze([
  '_links',
  '_embedded',
  'lastLogin',
  'lastUpdated',
  'lastMembershipUpdated',
  'statusChanged',
  'passwordChanged',
  'activated',
  'transitioningToStatus',
]);

/**
 * Content hash of a record's `data`: SHA-256 (FIPS 180-4), lowercase hex, of its canonical JSON
 * (RFC 8785 style, see `canonicalJson`) with members named in `volatileFields` left out at any
 * depth. Hashes compare only when made with the same field list (snapshots record theirs).
 * @throws TypeError when `data` is not JSON data
 */
export function contentHash(
  data: unknown,
  volatileFields: ReadonlySet<string> | readonly string[] = OKTA_VOLATILE_FIELDS,
): string {
  const omit = volatileFields instanceof Set ? volatileFields : new Set(volatileFields);
  // One-shot crypto.hash: a Hash object per record cost more than the digest itself.
  return hash('sha256', canonicalJson(data, omit), 'hex');
}
