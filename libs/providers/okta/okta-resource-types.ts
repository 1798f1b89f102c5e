/**
 * Okta's resource types, in the shared vocabulary of libs/records/resource-record.ts.
 *
 * Okta types are listed in dependency order, the order a restore applies them (DESIGN section
 * 6): schemas and types, zones, groups, users, memberships, group rules, authenticators,
 * policies and rules, authorization servers, apps and what hangs off them, identity providers,
 * profile mappings, hooks, trusted origins, brands, domains, then admin roles, which may target
 * any of these.
 *
 * Record ids: top-level objects use the provider's id (or the key Okta names them by: a linked
 * object's `primary.name`; the group schema is `default`). Child objects, which the provider
 * only lists under a parent, use `<parentId>:<childId>` (or
 * `<grandparentId>:<parentId>:<childId>`) so that a record alone says where it lives:
 * - group_membership `<groupId>:<userId>`, group_owner `<groupId>:<ownerId>`,
 *   app_user_assignment `<appId>:<userId>`, app_group_assignment `<appId>:<groupId>`,
 *   policy_rule `<policyId>:<ruleId>`,
 *   authorization_server_scope|claim|policy `<authServerId>:<id>`,
 *   authorization_server_policy_rule `<authServerId>:<policyId>:<ruleId>`;
 * - user_schema `<userTypeId>:schema`, app_feature `<appId>:<featureName>`,
 *   app_user_schema `<appId>:default`, app_sign_on_policy `<appId>:<policyId>`,
 *   app_signing_key `<appId>:<kid>`, app_client_secret `<appId>:<secretId>`;
 * - brand_theme `<brandId>:<themeId>`, email_template `<brandId>:<templateName>`,
 *   email_customization `<brandId>:<templateName>:<customizationId>`,
 *   brand_page `<brandId>:sign-in|error|sign-out`;
 * - custom_admin_role_permission `<roleId>:<permission>`, resource_set_resource
 *   `<resourceSetId>:<resourceId>`, resource_set_binding `<resourceSetId>:<roleId>`,
 *   resource_set_binding_member `<resourceSetId>:<roleId>:<memberId>`,
 *   admin_role_assignment `<userId|groupId>:<roleAssignmentId>`,
 *   admin_role_target `<userId|groupId>:<roleAssignmentId>:<targetId>`, where `targetId` is a
 *   group id (USER_ADMIN, HELP_DESK_ADMIN, GROUP_MEMBERSHIP_ADMIN), an app instance id
 *   (APP_ADMIN limited to one instance) or `catalog.<appName>` (APP_ADMIN limited to every
 *   instance of an OIN app, which Okta names by its key, e.g. `catalog.salesforce`): Okta ids
 *   are 20 letters and digits, unique across kinds and never hold a `.`, so the three cannot be
 *   mistaken for one another.
 */
export const OKTA_RESOURCE_TYPES = [
  'user_type',
  'user_schema',
  'group_schema',
  'linked_object',
  'network_zone',
  'group',
  'user',
  'group_membership',
  'group_owner',
  'group_rule',
  'authenticator',
  'behavior',
  'policy',
  'policy_rule',
  'authorization_server',
  'authorization_server_scope',
  'authorization_server_claim',
  'authorization_server_policy',
  'authorization_server_policy_rule',
  'app',
  'app_user_assignment',
  'app_group_assignment',
  'app_feature',
  'app_user_schema',
  'app_sign_on_policy',
  'app_signing_key',
  'app_client_secret',
  'identity_provider',
  'profile_mapping',
  'event_hook',
  'inline_hook',
  'trusted_origin',
  'brand',
  'brand_theme',
  'email_template',
  'email_customization',
  'brand_page',
  'custom_domain',
  'custom_admin_role',
  'custom_admin_role_permission',
  'resource_set',
  'resource_set_resource',
  'resource_set_binding',
  'resource_set_binding_member',
  'admin_role_assignment',
  'admin_role_target',
] as const;

export type OktaResourceType = (typeof OKTA_RESOURCE_TYPES)[number];
