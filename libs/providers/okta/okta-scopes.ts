import type { OktaResourceType } from '../resource-types.js';

/**
 * The Okta OAuth 2.0 scope each type's list operation requires (its OpenAPI `security.oauth2`).
 * A connector requests all of them by default (OKTA_BACKUP_SCOPES), with okta.logs.read for
 * incremental backups: reads only. An API service integration must be granted these.
 */
const READ_SCOPES: Record<OktaResourceType, string> = {
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
