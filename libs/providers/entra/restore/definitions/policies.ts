import { omit, pick } from '@libs/providers/kit/type-restore-definition.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { EntraResourceType } from '@libs/providers/entra/entra-resource-catalog.js';
import type { GraphObject } from '@libs/providers/entra/graph-api-client.js';
import { withoutAnnotations } from '@libs/providers/entra/restore/conditional-access-shape.js';
import {
  ENTRA_SERVER_OWNED,
  type EntraRestoreDefinition,
} from '@libs/providers/entra/restore/entra-restore-definition.js';
import { graphCollection, graphSingleton } from '@libs/providers/entra/restore/graph-collection.js';
import { permissionGrantPolicyDefinition } from './permission-grant-policy.js';

const CROSS_TENANT_DEFAULT = '/v1.0/policies/crossTenantAccessPolicy/default';

const SINGLETON =
  'A tenant has exactly one: a restore updates it in place (PATCH), never creates or deletes it';
const NOT_ASSIGNED =
  'The applications and service principals it was assigned to are not assigned again: assign it in the Entra admin center';

/** The data less what Graph sets and OData annotations (`@odata.type` kept). */
const plain = (data: GraphObject, also: readonly string[] = []): GraphObject =>
  omit(withoutAnnotations(data) as GraphObject, [...ENTRA_SERVER_OWNED, ...also]);

const byDisplayName = (record: ResourceRecord): string | null =>
  typeof record.data.displayName === 'string' ? record.data.displayName : null;

/** "Update authorizationPolicy": the properties its table lists as updatable. */
const AUTHORIZATION_WRITABLE = [
  'allowEmailVerifiedUsersToJoinOrganization',
  'allowInvitesFrom',
  'allowUserConsentForRiskyApps',
  'allowedToSignUpEmailBasedSubscriptions',
  'allowedToUseSSPR',
  'blockMsolPowerShell',
  'defaultUserRolePermissions',
  'guestUserRoleId',
];

/**
 * "Update authenticationMethodsPolicy": the members it takes (registrationEnforcement,
 * reportSuspiciousActivitySettings, systemCredentialPreferences, policyMigrationState); the
 * others are Graph's (policyVersion, lastModifiedDateTime) and the method configurations are
 * their own records.
 */
const METHODS_POLICY_WRITABLE = [
  'registrationEnforcement',
  'reportSuspiciousActivitySettings',
  'systemCredentialPreferences',
  'policyMigrationState',
];

/**
 * "Update adminConsentRequestPolicy" (PUT, every member required): `version` is read-only and
 * Graph increments it with each update.
 */
const CONSENT_REQUEST_WRITABLE = [
  'isEnabled',
  'notifyReviewers',
  'remindersEnabled',
  'requestDurationInDays',
  'reviewers',
];

/** Token lifetime, token issuance, claims mapping and home realm discovery policies ("Create tokenLifetimePolicy"...). */
function applicationPolicy(path: string): EntraRestoreDefinition {
  return graphCollection(
    { path, params: ['id'] },
    { writable: (data) => plain(data), naturalKey: byDisplayName, notes: [NOT_ASSIGNED] },
  );
}

/**
 * The tenant's policies other than conditional access ("Update authorizationPolicy", "Update
 * authenticationMethodsPolicy", "Update authenticationMethodConfiguration", "Update
 * identitySecurityDefaultsEnforcementPolicy", "Update adminConsentRequestPolicy", "Create
 * permissionGrantPolicy", "Create tokenLifetimePolicy" and the other application policies,
 * "Update crossTenantAccessPolicy", "Update crossTenantAccessPolicyConfigurationDefault",
 * "Create crossTenantAccessPolicyConfigurationPartner", "Create groupSetting", "Create
 * groupLifecyclePolicy", with their updates and deletions). Singletons are updated only.
 */
export function policyDefinitions(): Partial<Record<EntraResourceType, EntraRestoreDefinition>> {
  return {
    authorization_policy: graphSingleton('/v1.0/policies/authorizationPolicy', {
      writable: (data) => pick(withoutAnnotations(data) as GraphObject, AUTHORIZATION_WRITABLE),
      notes: [SINGLETON],
    }),
    authentication_methods_policy: graphSingleton('/v1.0/policies/authenticationMethodsPolicy', {
      writable: (data) => pick(data, METHODS_POLICY_WRITABLE),
      notes: [
        SINGLETON,
        "Its name, description and version are Graph's: only its registration campaign, suspicious activity reporting, system credential preferences and migration state are written",
      ],
    }),
    authentication_method_configuration: graphCollection(
      {
        path: '/v1.0/policies/authenticationMethodsPolicy/authenticationMethodConfigurations',
        // the record id is the configuration's own (`Fido2`), as the catalogue reads it
        params: ['id'],
        noDelete: true,
      },
      {
        create: undefined,
        writable: (data) => plain(data),
        notes: [
          'Every tenant has the same method configurations (Fido2, Sms...): a restore updates each in place, never creates or deletes one',
        ],
      },
    ),
    identity_security_defaults_enforcement_policy: graphSingleton(
      '/v1.0/policies/identitySecurityDefaultsEnforcementPolicy',
      {
        // "Update identitySecurityDefaultsEnforcementPolicy" takes isEnabled only
        writable: (data) => pick(data, ['isEnabled']),
        notes: [SINGLETON],
      },
    ),
    admin_consent_request_policy: graphSingleton('/v1.0/policies/adminConsentRequestPolicy', {
      writable: (data) => pick(data, CONSENT_REQUEST_WRITABLE),
      async update(record, _live, context) {
        await context.graph.write({
          method: 'PUT',
          template: '/v1.0/policies/adminConsentRequestPolicy',
          body: {
            reviewers: [],
            ...(withoutAnnotations(pick(record.data, CONSENT_REQUEST_WRITABLE)) as GraphObject),
          },
          signal: context.signal,
        });
        return [];
      },
      notes: [SINGLETON, "Its version is Graph's, one more after the restore writes it"],
    }),
    permission_grant_policy: permissionGrantPolicyDefinition(),
    token_lifetime_policy: applicationPolicy('/v1.0/policies/tokenLifetimePolicies'),
    token_issuance_policy: applicationPolicy('/v1.0/policies/tokenIssuancePolicies'),
    claims_mapping_policy: applicationPolicy('/v1.0/policies/claimsMappingPolicies'),
    home_realm_discovery_policy: applicationPolicy('/v1.0/policies/homeRealmDiscoveryPolicies'),
    cross_tenant_access_policy: graphSingleton('/v1.0/policies/crossTenantAccessPolicy', {
      // "Update crossTenantAccessPolicy" takes displayName and allowedCloudEndpoints
      writable: (data) => pick(data, ['displayName', 'allowedCloudEndpoints']),
      notes: [SINGLETON],
    }),
    cross_tenant_access_policy_configuration_default: graphSingleton(CROSS_TENANT_DEFAULT, {
      // isServiceDefault is Graph's: false once the default is changed
      writable: (data) => plain(data, ['isServiceDefault']),
      // A backed-up service default is put back by resetting to it ("resetToSystemDefault"):
      // settings written back would no longer count as the service default.
      async update(record, _live, context) {
        await context.graph.write(
          record.data.isServiceDefault === true
            ? {
                method: 'POST',
                template: `${CROSS_TENANT_DEFAULT}/resetToSystemDefault`,
                signal: context.signal,
              }
            : {
                method: 'PATCH',
                template: CROSS_TENANT_DEFAULT,
                body: plain(record.data, ['isServiceDefault']),
                signal: context.signal,
              },
        );
        return [];
      },
      notes: [SINGLETON],
    }),
    cross_tenant_access_policy_configuration_partner: graphCollection(
      { path: '/v1.0/policies/crossTenantAccessPolicy/partners', params: ['tenantId'] },
      {
        // isInMultiTenantOrganization is Graph's (a multitenant organization sets it)
        writable: (data) => plain(data, ['isInMultiTenantOrganization']),
        async create(record, context) {
          await context.graph.write({
            method: 'POST',
            template: '/v1.0/policies/crossTenantAccessPolicy/partners',
            body: plain(record.data, ['isInMultiTenantOrganization']),
            signal: context.signal,
          });
          // a partner is keyed by the partner tenant's id, which the record id is
          return { id: record.id };
        },
        notes: [
          'Cross-tenant partner settings have no deleted items in Graph v1.0: a deleted partner is created again',
        ],
      },
    ),
    group_setting: graphCollection(
      {
        path: '/v1.0/groupSettings',
        params: ['id'],
        // the values in the backup's order: Graph keeps the order it is sent
        createBody: (_writable, record) => pick(record.data, ['templateId', 'values']),
        updateBody: (_writable, record) => pick(record.data, ['values']),
      },
      {
        // "Create groupSetting" takes templateId and values; displayName comes from the template
        writable: (data) => {
          const kept = pick(data, ['templateId', 'values']);
          if (Array.isArray(kept.values))
            kept.values = [...(kept.values as Array<{ name?: string }>)].sort((a, b) =>
              String(a.name).localeCompare(String(b.name)),
            );
          return kept;
        },
        // one setting per template in a tenant
        naturalKey: (record) => (typeof record.data.templateId === 'string' ? record.data.templateId : null),
      },
    ),
    group_lifecycle_policy: graphCollection(
      { path: '/v1.0/groupLifecyclePolicies', params: ['id'] },
      {
        writable: (data) => plain(data),
        // "Only one policy exists in the tenant": a re-created one is the live one
        naturalKey: () => 'the tenant',
        notes: [
          'The groups a policy for selected groups applies to are not added again: add them in the Entra admin center',
        ],
      },
    ),
  };
}
