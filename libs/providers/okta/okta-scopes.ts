import type { OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';

/**
 * The Okta OAuth 2.0 scope each type's list operation requires (its OpenAPI `security.oauth2`).
 * A connector requests all of them by default (OKTA_BACKUP_SCOPES), with okta.logs.read for
 * incremental backups: reads only. An API service integration must be granted these.
 */
const READ_SCOPES: Record<OktaResourceType, string> = {
  user_type: 'okta.userTypes.read',
  user_schema: 'okta.schemas.read',
  group_schema: 'okta.schemas.read',
  linked_object: 'okta.linkedObjects.read',
  group_owner: 'okta.groups.read',
  authenticator: 'okta.authenticators.read',
  behavior: 'okta.behaviors.read',
  app_feature: 'okta.apps.read',
  app_user_schema: 'okta.schemas.read',
  app_sign_on_policy: 'okta.apps.read',
  app_signing_key: 'okta.apps.read',
  app_client_secret: 'okta.apps.read',
  identity_provider: 'okta.idps.read',
  profile_mapping: 'okta.profileMappings.read',
  event_hook: 'okta.eventHooks.read',
  inline_hook: 'okta.inlineHooks.read',
  brand: 'okta.brands.read',
  brand_theme: 'okta.brands.read',
  email_template: 'okta.templates.read',
  email_customization: 'okta.templates.read',
  brand_page: 'okta.brands.read',
  custom_domain: 'okta.domains.read',
  custom_admin_role: 'okta.roles.read',
  custom_admin_role_permission: 'okta.roles.read',
  resource_set: 'okta.roles.read',
  resource_set_resource: 'okta.roles.read',
  resource_set_binding: 'okta.roles.read',
  resource_set_binding_member: 'okta.roles.read',
  admin_role_assignment: 'okta.roles.read',
  admin_role_target: 'okta.roles.read',
  user: 'okta.users.read',
  group: 'okta.groups.read',
  group_membership: 'okta.groups.read',
  group_rule: 'okta.groups.read',
  app: 'okta.apps.read',
  app_user_assignment: 'okta.apps.read',
  app_group_assignment: 'okta.apps.read',
  policy: 'okta.policies.read',
  policy_rule: 'okta.policies.read',
  authorization_server: 'okta.authorizationServers.read',
  authorization_server_scope: 'okta.authorizationServers.read',
  authorization_server_claim: 'okta.authorizationServers.read',
  authorization_server_policy: 'okta.authorizationServers.read',
  authorization_server_policy_rule: 'okta.authorizationServers.read',
  network_zone: 'okta.networkZones.read',
  trusted_origin: 'okta.trustedOrigins.read',
};

/** listLogEvents: `deletedSince` reads deletions from the System Log for incremental backups. */
const LOGS_SCOPE = 'okta.logs.read';

export const OKTA_BACKUP_SCOPES: readonly string[] = [
  ...new Set([...Object.values(READ_SCOPES), LOGS_SCOPE]),
];

/**
 * The scopes a restore of `types` needs: the backup's read scopes (the live org is read to plan)
 * and, per type written, its family's `.manage` scope (Okta OAuth scopes: `okta.groups.manage`
 * also reads), each once. An API service integration must be granted them to restore.
 */
export function oktaRestoreScopes(types: readonly OktaResourceType[]): string[] {
  const manage = types.map((type) => READ_SCOPES[type].replace(/\.read$/, '.manage'));
  return [...new Set([...OKTA_BACKUP_SCOPES, ...manage])];
}
