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
