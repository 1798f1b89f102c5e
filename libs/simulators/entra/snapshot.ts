import {
  ENTRA_TYPE_DEFINITIONS,
  type EntraResourceType,
} from '@libs/providers/entra/entra-resource-catalog.js';

import { managerOf } from './dependency-objects.js';
import { extensionProperties } from './extension-values.js';
import { USER_PROPERTIES } from './seed/users.js';
import type { ChildCollection, Collection, GraphObject, TenantState } from './tenant-state.js';

/** One object of the tenant in the shared record vocabulary (libs/records/resource-record.ts). */
export interface EntraSnapshotRecord {
  id: string;
  name: string | null;
  data: Record<string, unknown>;
}

/** Type -> records, in the Entra connector's type names (libs/providers/entra). */
export type EntraSnapshot = Record<string, EntraSnapshotRecord[]>;

function records(
  objects: Iterable<GraphObject>,
  name: (object: GraphObject) => unknown,
): EntraSnapshotRecord[] {
  return [...objects].map((object) => ({
    id: object.id,
    name: (name(object) as string | null) ?? null,
    data: object,
  }));
}

/** The collection behind each top-level Entra type beyond users and groups (docs/resource-types.md). */
const TOP_LEVEL: Partial<Record<EntraResourceType, Collection>> = {
  group_setting: 'groupSettings',
  group_lifecycle_policy: 'groupLifecyclePolicies',
  administrative_unit: 'administrativeUnits',
  application: 'applications',
  service_principal: 'servicePrincipals',
  oauth2_permission_grant: 'oauth2PermissionGrants',
  role_assignment: 'roleAssignments',
  role_eligibility_schedule: 'roleEligibilitySchedules',
  role_assignment_schedule: 'roleAssignmentSchedules',
  authentication_strength_policy: 'authenticationStrengthPolicies',
  identity_security_defaults_enforcement_policy: 'identitySecurityDefaultsEnforcementPolicy',
  admin_consent_request_policy: 'adminConsentRequestPolicy',
  permission_grant_policy: 'permissionGrantPolicies',
  token_lifetime_policy: 'tokenLifetimePolicies',
  token_issuance_policy: 'tokenIssuancePolicies',
  claims_mapping_policy: 'claimsMappingPolicies',
  home_realm_discovery_policy: 'homeRealmDiscoveryPolicies',
  cross_tenant_access_policy: 'crossTenantAccessPolicy',
  cross_tenant_access_policy_configuration_default: 'crossTenantAccessPolicyDefault',
  cross_tenant_access_policy_configuration_partner: 'crossTenantAccessPolicyPartners',
  identity_provider: 'identityProviders',
  attribute_set: 'attributeSets',
  custom_security_attribute_definition: 'customSecurityAttributeDefinitions',
  authentication_context_class_reference: 'authenticationContextClassReferences',
  terms_of_use_agreement: 'termsOfUseAgreements',
  role_management_policy: 'roleManagementPolicies',
  role_management_policy_assignment: 'roleManagementPolicyAssignments',
  default_app_management_policy: 'defaultAppManagementPolicy',
  app_management_policy: 'appManagementPolicies',
};

/** Each type held under a parent object: the parent's collection and the children's. */
const UNDER_PARENT: Partial<Record<EntraResourceType, { parent: Collection; children: ChildCollection }>> = {
  organizational_branding: { parent: 'organization', children: 'branding' },
  group_owner: { parent: 'groups', children: 'groupOwners' },
  administrative_unit_member: { parent: 'administrativeUnits', children: 'administrativeUnitMembers' },
  application_owner: { parent: 'applications', children: 'applicationOwners' },
  federated_identity_credential: { parent: 'applications', children: 'federatedIdentityCredentials' },
  extension_property: { parent: 'applications', children: 'extensionProperties' },
  app_role_assignment: { parent: 'servicePrincipals', children: 'appRoleAssignedTo' },
  scoped_role_membership: { parent: 'administrativeUnits', children: 'scopedRoleMembers' },
  domain_federation_configuration: { parent: 'domains', children: 'federationConfiguration' },
};

/** A collection's objects as records of `type`: the key the tenant holds them by, Graph's JSON. */
function keyed(state: TenantState, type: EntraResourceType, collection: Collection): EntraSnapshotRecord[] {
  const { name } = ENTRA_TYPE_DEFINITIONS[type];
  return [...state.collection(collection)].map(([id, object]) => ({
    id,
    name: (name(object) as string | null | undefined) ?? null,
    data: object,
  }));
}

/**
 * Objects held under parents, in the parents' order, as records `<parentId>:<id>`: links (owners,
 * members) as `{ <parentKey>, <key>Id, <key>Type }` (ENTRA_TYPE_DEFINITIONS `link`), the others as
 * Graph returns them.
 */
function underParents(state: TenantState, type: EntraResourceType): EntraSnapshotRecord[] {
  const { parent, children } = UNDER_PARENT[type]!;
  const { link, name } = ENTRA_TYPE_DEFINITIONS[type];
  const out: EntraSnapshotRecord[] = [];
  for (const parentId of state.collection(parent).keys())
    for (const child of state.childrenOf(children, parentId)) {
      const memberType = state.directoryObjectType(child.id);
      if (link && !memberType) continue; // a link to nothing lists nothing
      out.push({
        id: `${parentId}:${child.id}`,
        name: link ? null : ((name(child) as string | null | undefined) ?? null),
        data: link
          ? {
              [link.parentKey]: parentId,
              [`${link.key}Id`]: child.id,
              [`${link.key}Type`]: memberType!.replace('#microsoft.graph.', ''),
            }
          : child,
      });
    }
  return out;
}

/**
 * Every object of the tenant as a backup of it must hold, so tests compare the two record by
 * record: users with every stored property (the connector selects them all), memberships as
 * `{ groupId, memberId, memberType }` with id `<groupId>:<memberId>` (owners and unit members
 * alike), custom role definitions only, the authentication methods policy without its method
 * configurations (records of their own), the others as Graph returns them.
 */
export function snapshotOf(state: TenantState): EntraSnapshot {
  const byName = (object: GraphObject): unknown => object.displayName;
  const user = records(state.collection('users').values(), (u) => u.userPrincipalName ?? u.displayName).map(
    (record) => ({
      ...record,
      data: Object.fromEntries(USER_PROPERTIES.map((name) => [name, record.data[name] ?? null])),
    }),
  );
  const membership: EntraSnapshotRecord[] = [];
  for (const [groupId, members] of state.members)
    for (const memberId of members)
      membership.push({
        id: `${groupId}:${memberId}`,
        name: null,
        data: {
          groupId,
          memberId,
          memberType: state.directoryObjectType(memberId)!.replace('#microsoft.graph.', ''),
        },
      });
  const methodsPolicies = records(state.collection('authenticationMethodsPolicy').values(), byName);
  const methodConfigurations = methodsPolicies.flatMap(({ data }) =>
    ((data.authenticationMethodConfigurations ?? []) as GraphObject[]).map((configuration) => ({
      id: configuration.id,
      name: configuration.id,
      data: configuration,
    })),
  );
  const snapshot: EntraSnapshot = {
    user,
    group: records(state.collection('groups').values(), byName),
    group_membership: membership,
    conditional_access_policy: records(state.collection('conditionalAccessPolicies').values(), byName),
    named_location: records(state.collection('namedLocations').values(), byName),
    authorization_policy: records(state.collection('authorizationPolicy').values(), byName),
    organization: records(state.collection('organization').values(), byName),
    domain: records(state.collection('domains').values(), (domain) => domain.id),
    authentication_methods_policy: methodsPolicies.map(({ data, ...record }) => {
      const { authenticationMethodConfigurations: _configurations, ...policy } = data;
      return { ...record, data: policy };
    }),
    authentication_method_configuration: methodConfigurations,
    // "List users" with `$expand=manager($select=id)`, and with `$select=id,assignedLicenses`
    user_manager: [...state.collection('users').keys()].map((id) => ({
      id,
      name: null,
      data: { id, manager: managerOf(state, id) },
    })),
    user_license: [...state.collection('users').values()].map(({ id, assignedLicenses }) => ({
      id,
      name: null,
      data: { id, assignedLicenses: assignedLicenses ?? null },
    })),
    user_extension_values: userExtensionValues(state),
    role_definition: keyed(state, 'role_definition', 'roleDefinitions').filter(
      ({ data }) => data.isBuiltIn === false,
    ),
  };
  for (const [type, collection] of Object.entries(TOP_LEVEL))
    snapshot[type] = keyed(state, type as EntraResourceType, collection);
  for (const type of Object.keys(UNDER_PARENT))
    snapshot[type] = underParents(state, type as EntraResourceType);
  return snapshot;
}

/**
 * "List users" with `$select=id,<the tenant's User extension names>`: a record per user with the
 * extensions it has a value of, none when the tenant has no User extension.
 */
function userExtensionValues(state: TenantState): EntraSnapshotRecord[] {
  const names = extensionProperties(state)
    .filter(({ targetObjects }) => Array.isArray(targetObjects) && targetObjects.includes('User'))
    .map(({ name }) => String(name));
  if (names.length === 0) return [];
  return [...state.collection('users').values()].map((user) => ({
    id: String(user.id),
    name: null,
    data: {
      id: user.id,
      ...Object.fromEntries(names.filter((name) => user[name] != null).map((name) => [name, user[name]])),
    },
  }));
}
