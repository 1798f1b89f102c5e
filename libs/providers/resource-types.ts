/**
 * The resource-type vocabulary shared by counts, filters, diff, restore and timeline
 * (DESIGN section 4): singular snake_case, one word per kind of provider object.
 *
 * Record ids: top-level objects use the provider's id. Child objects, which the provider
 * only lists under a parent, use `<parentId>:<childId>` (or `<grandparentId>:<parentId>:<childId>`)
 * so that a record alone says where it lives:
 * - group_membership `<groupId>:<userId>`, app_user_assignment `<appId>:<userId>`,
 *   app_group_assignment `<appId>:<groupId>`, policy_rule `<policyId>:<ruleId>`,
 *   authorization_server_scope|claim|policy `<authServerId>:<id>`,
 *   authorization_server_policy_rule `<authServerId>:<policyId>:<ruleId>`.
 */
export const OKTA_RESOURCE_TYPES = [
  'user',
  'group',
  'group_membership',
  'group_rule',
  'app',
  'app_user_assignment',
  'app_group_assignment',
  'policy',
  'policy_rule',
  'authorization_server',
  'authorization_server_scope',
  'authorization_server_claim',
  'authorization_server_policy',
  'authorization_server_policy_rule',
  'network_zone',
  'trusted_origin',
] as const;

export type OktaResourceType = (typeof OKTA_RESOURCE_TYPES)[number];

/** Any provider's resource type; each connector lists its own. */
export type ResourceType = string;

/**
 * One backed-up object, as stored in a snapshot part (DESIGN section 5).
 * `data` is the provider's JSON exactly as returned (volatile fields included: they are left
 * out of the content hash, not out of the record). `name` is a human label (login, label, name).
 * group_membership records carry `{ groupId, userId }` as data (the provider returns whole
 * user objects there, which the `user` part already holds).
 */
export interface ResourceRecord {
  type: ResourceType;
  id: string;
  name: string | null;
  data: Record<string, unknown>;
}
