/**
 * The resource-type vocabulary shared by counts, filters, diff, restore and timeline
 * (DESIGN section 4): singular snake_case, one word per kind of provider object. Snapshots,
 * compliance checks and providers all stand on it, so it depends on nothing; each provider lists
 * its own types and record ids (libs/providers/okta/okta-resource-types.ts for Okta).
 *
 * Record ids: a top-level object keeps the provider's id; a child object, which the provider
 * only lists under a parent, is `<parentId>:<childId>` (or `<grandparentId>:<parentId>:<childId>`),
 * so that a record alone says where it lives.
 */

/** Any provider's resource type; each connector lists its own. */
export type ResourceType = string;

/**
 * One backed-up object, as stored in a snapshot part (DESIGN section 5).
 * `data` is the provider's JSON exactly as returned (volatile fields included: they are left
 * out of the content hash, not out of the record). `name` is a human label (login, label, name).
 * group_membership records carry `{ groupId, userId }` as data (the provider returns whole
 * user objects there, which the `user` part already holds); app_sign_on_policy records carry
 * `{ appId, policyId }` (read from the app's `_links.accessPolicy`); admin_role_target records
 * carry `{ assignmentType, roleType }` and `groupId`, `appId` or `appName` (Okta answers whole
 * groups and apps there, which their own parts hold). Secrets are removed from `data` (the
 * connector's `notCaptured`).
 */
export interface ResourceRecord {
  type: ResourceType;
  id: string;
  name: string | null;
  data: Record<string, unknown>;
}
