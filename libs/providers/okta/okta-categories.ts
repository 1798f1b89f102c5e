/**
 * The resource categories `include` accepts for Okta (docs/resource-types.md), each a set of
 * types; together they cover every Okta type exactly once.
 */
export const OKTA_CATEGORIES: Readonly<Record<string, readonly string[]>> = {
  users: ['user'],
  groups: ['group', 'group_membership', 'group_owner', 'group_rule'],
  schemas: ['user_type', 'user_schema', 'group_schema', 'linked_object', 'profile_mapping'],
  apps: [
    'app',
    'app_user_assignment',
    'app_group_assignment',
    'app_feature',
    'app_user_schema',
    'app_sign_on_policy',
    'app_signing_key',
    'app_client_secret',
  ],
  policies: ['policy', 'policy_rule'],
  security: ['authenticator', 'behavior'],
  authorization_servers: [
    'authorization_server',
    'authorization_server_scope',
    'authorization_server_claim',
    'authorization_server_policy',
    'authorization_server_policy_rule',
  ],
  network: ['network_zone', 'trusted_origin'],
  identity_providers: ['identity_provider'],
  hooks: ['event_hook', 'inline_hook'],
  branding: ['brand', 'brand_theme', 'email_template', 'email_customization', 'brand_page', 'custom_domain'],
  admin_roles: [
    'admin_role_assignment',
    'admin_role_target',
    'custom_admin_role',
    'custom_admin_role_permission',
    'resource_set',
    'resource_set_resource',
    'resource_set_binding',
    'resource_set_binding_member',
  ],
};
