import { OKTA_RESOURCE_TYPES } from '@libs/providers/resource-types.js';
import { ValidationError } from '@app/common/errors.js';
import type { ProviderKind } from '@app/connections/provider-kind.js';

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

const CATALOG: Partial<
  Record<ProviderKind, { types: readonly string[]; categories: Readonly<Record<string, readonly string[]>> }>
> = {
  okta: { types: OKTA_RESOURCE_TYPES, categories: OKTA_CATEGORIES },
};

/** Every resource type the provider's connector collects, in dependency order (none for one without a catalogue). */
export function supportedTypes(provider: ProviderKind): readonly string[] {
  return CATALOG[provider]?.types ?? [];
}

/**
 * Resolves `include` of POST /api/backup/run (spec: "Resource categories"): each entry is a
 * category or a resource type of DESIGN section 4. Returns the types, deduplicated, in the
 * provider's dependency order. Also resolves the `resourceTypes` filters of diff and restore.
 * @param field the request field named in the error
 * @throws ValidationError listing the valid categories and types when an entry is unknown or the list is empty.
 */
export function resolveIncludedTypes(
  provider: ProviderKind,
  include: readonly string[],
  field = 'include',
): string[] {
  const { types, categories } = CATALOG[provider] ?? { types: [], categories: {} };
  const unknown = include.filter((entry) => !types.includes(entry) && !(entry in categories));
  if (unknown.length > 0 || include.length === 0) {
    const valid = [...Object.keys(categories), ...types];
    throw new ValidationError(
      `${field}: unknown resource type or category ${unknown.join(', ') || '(empty list)'}; valid values: ${valid.join(', ')}`,
      [{ field, message: 'unknown resource type or category', unknown, valid }],
    );
  }
  const wanted = new Set(include.flatMap((entry) => categories[entry] ?? [entry]));
  return types.filter((type) => wanted.has(type));
}
