import {
  ENTRA_TYPE_DEFINITIONS,
  type EntraResourceType,
} from '@libs/providers/entra/entra-resource-catalog.js';
import type { EntraSnapshot, EntraSnapshotRecord } from '@libs/simulators/entra/snapshot.js';
import { DIRECTORY_WRITER_ROLES, type GraphAnswer, type GraphTestClient } from './graph-client.js';

type Json = Record<string, unknown>;

/**
 * The application permissions of a tenant admin's tool that damages every type: the directory
 * writers' and each policy area's ReadWrite permission (from the "Permissions" tables of the
 * Update/Delete pages of each type: "Update organization", "Update namedLocation", "Update
 * authorizationPolicy", "Update crossTenantAccessPolicyConfigurationPartner"...).
 */
export const DAMAGE_ROLES = [
  ...DIRECTORY_WRITER_ROLES,
  'Directory.ReadWrite.All',
  'Organization.ReadWrite.All',
  'OrganizationalBranding.ReadWrite.All',
  'Domain.ReadWrite.All',
  'GroupSettings.ReadWrite.All',
  'AppRoleAssignment.ReadWrite.All',
  'RoleManagement.ReadWrite.Directory',
  'RoleEligibilitySchedule.ReadWrite.Directory',
  'RoleAssignmentSchedule.ReadWrite.Directory',
  'Policy.Read.All',
  'Policy.ReadWrite.ConditionalAccess',
  'Policy.ReadWrite.Authorization',
  'Policy.ReadWrite.AuthenticationMethod',
  'Policy.ReadWrite.SecurityDefaults',
  'Policy.ReadWrite.ConsentRequest',
  'Policy.ReadWrite.PermissionGrant',
  'Policy.ReadWrite.ApplicationConfiguration',
  'Policy.ReadWrite.CrossTenantAccess',
  'IdentityProvider.ReadWrite.All',
  'CustomSecAttributeDefinition.ReadWrite.All',
  'AuthenticationContext.ReadWrite.All',
  'Agreement.ReadWrite.All',
  'LicenseAssignment.ReadWrite.All',
  'RoleManagementPolicy.ReadWrite.Directory',
];

/** What one damage did: the record id it deleted or changed, else why none. */
export interface Damage {
  id: string | null;
  /** why nothing was done: Graph's rule for the type, or what Graph answered */
  why?: string;
  /** the simulator does not serve a write Graph documents (the proof cannot run): its answer */
  unserved?: string;
}

/** Objects tried per type before the damage gives up (Graph refuses built-in ones...). */
const CANDIDATES = 20;

/** Microsoft's own tenant: service principals of its first-party apps are not the tenant's to delete. */
const MICROSOFT_TENANT = 'f8cdef31-a31e-4b4a-93e4-5f571e91255a';

/**
 * Types whose objects Graph lets no admin delete, with why (from their reference pages: no
 * "Delete" operation, or a singleton that is only updated).
 */
const NOT_DELETABLE: Partial<Record<EntraResourceType, string>> = {
  organization: 'a tenant cannot delete its organization',
  organizational_branding: 'a singleton: updated only',
  authorization_policy: 'a singleton: updated only',
  authentication_methods_policy: 'a singleton: updated only',
  authentication_method_configuration: "the tenant's methods are fixed: each is enabled or disabled",
  identity_security_defaults_enforcement_policy: 'a singleton: updated only',
  admin_consent_request_policy: 'a singleton: updated only',
  cross_tenant_access_policy: 'a singleton: updated only',
  cross_tenant_access_policy_configuration_default: 'a singleton: updated (or reset) only',
  default_app_management_policy: 'a singleton: updated only',
  attribute_set: 'Graph has no delete of an attribute set',
  custom_security_attribute_definition:
    'Graph has no delete of a custom security attribute definition: it is deactivated (status Deprecated)',
  role_management_policy: 'Entra keeps one policy for each role: its rules are updated only',
  role_management_policy_assignment: 'Entra assigns each role its policy',
};

/** Types Graph has no update of, with why. */
const NOT_CHANGEABLE: Partial<Record<EntraResourceType, string>> = {
  group_membership: 'a link has no properties',
  group_owner: 'a link has no properties',
  administrative_unit_member: 'a link has no properties',
  application_owner: 'a link has no properties',
  extension_property: 'Graph has no update of an extension property',
  app_role_assignment: 'Graph has no update of an app role assignment',
  role_assignment: 'Graph has no update of a role assignment',
  scoped_role_membership: 'Graph has no update of a scoped role membership',
  role_eligibility_schedule: 'a schedule changes only through a schedule request',
  role_assignment_schedule: 'a schedule changes only through a schedule request',
  user_manager: 'a user has one manager at most: the damage takes it away',
  role_management_policy_assignment: 'Entra assigns each role its policy',
};

/** A damage Graph makes through an action or another path than the item's: method, path, body. */
type DamageCall = (record: EntraSnapshotRecord) => [string, string, Json] | null;

/** "user: assignLicense" (`POST /users/{id}/assignLicense`): `addLicenses` and `removeLicenses` both required. */
const assignLicense = (
  recordId: string,
  body: Partial<Record<'addLicenses' | 'removeLicenses', unknown[]>>,
) =>
  [
    'POST',
    `/v1.0/users/${recordId.split(':')[0]}/assignLicense`,
    { addLicenses: [], removeLicenses: [], ...body },
  ] as [string, string, Json];

/** A user's directory extension values (the record's `extension_` members) set with "Update user". */
const extensionValues = ({ id, data }: EntraSnapshotRecord, value: (old: unknown) => unknown) => {
  const names = Object.keys(data).filter((name) => name.startsWith('extension_'));
  if (names.length === 0) return null;
  return [
    'PATCH',
    `/v1.0/users/${id}`,
    Object.fromEntries(names.map((name) => [name, value(data[name])])),
  ] as [string, string, Json];
};

/**
 * Deletions made by an action or under the item (none for a record without what they remove): a
 * user's manager removed ("Remove manager"), a licence taken away from its user, a user's
 * directory extension values set to null (which removes them).
 */
const DELETE_CALLS: Partial<Record<EntraResourceType, DamageCall>> = {
  user_extension_values: (record) => extensionValues(record, () => null),
  user_manager: ({ id, data }) => (data.manager ? ['DELETE', `/v1.0/users/${id}/manager/$ref`, {}] : null),
  user_license: ({ id, data }) => {
    const [first] = (data.assignedLicenses as Json[] | null) ?? [];
    return first ? assignLicense(id, { removeLicenses: [first.skuId] }) : null;
  },
};

/**
 * Changes made by an action or under the item: a user's directory extension values changed, a licence assigned again with every plan on, a role's PIM rule for active assignments made to require (or not) an
 * expiration ("Update unifiedRoleManagementPolicyRule").
 */
const CHANGE_CALLS: Partial<Record<EntraResourceType, DamageCall>> = {
  user_extension_values: (record) => extensionValues(record, (old) => `${String(old)}-changed`),
  user_license: ({ id, data }) => {
    const licence = ((data.assignedLicenses as Json[] | null) ?? []).find(
      (assigned) => (assigned.disabledPlans as unknown[]).length > 0,
    );
    return licence ? assignLicense(id, { addLicenses: [{ skuId: licence.skuId, disabledPlans: [] }] }) : null;
  },
  role_management_policy: ({ id, data }) => {
    const rule = ((data.rules as Json[] | undefined) ?? []).find(
      (r) => r.id === 'Expiration_Admin_Assignment',
    );
    if (!rule) return null;
    return [
      'PATCH',
      `/v1.0/policies/roleManagementPolicies/${encodeURIComponent(id)}/rules/${String(rule.id)}`,
      { ...rule, isExpirationRequired: flip(rule.isExpirationRequired) },
    ];
  },
};

/**
 * A schedule is removed by a request ("Create roleEligibilityScheduleRequest" /
 * "Create roleAssignmentScheduleRequests" with `action: adminRemove`), not by DELETE.
 */
const SCHEDULE_REQUESTS: Partial<Record<EntraResourceType, string>> = {
  role_eligibility_schedule: '/v1.0/roleManagement/directory/roleEligibilityScheduleRequests',
  role_assignment_schedule: '/v1.0/roleManagement/directory/roleAssignmentScheduleRequests',
};

/**
 * The item path of a record from the catalog's path and the record id's components
 * (`<parentId>:<childId>`): `<path>/<id>` for a collection's object, the path of a singleton (a
 * parent's, `{id}` filled), a link's `<path>/<memberId>` (DELETE appends `/$ref`).
 */
export function itemPath(type: EntraResourceType, id: string): string {
  const definition = ENTRA_TYPE_DEFINITIONS[type];
  const parts = id.split(':').map(encodeURIComponent);
  if (definition.kind === 'embedded') return definition.template.replace('{id}', parts[0]);
  const path =
    definition.kind === 'child' ? definition.template.replace('{id}', parts[0]) : definition.template;
  if (definition.kind === 'single' || (definition.kind === 'child' && definition.object)) return path;
  return `${path}/${parts[parts.length - 1]}`;
}

/**
 * The tenant's own objects: built-in ones (role definitions, authentication strengths, the
 * `microsoft-` permission grant policies) are Microsoft's, and Graph refuses to change them.
 */
function custom(records: EntraSnapshotRecord[]): EntraSnapshotRecord[] {
  return records.filter(
    ({ id, data }) =>
      data.isBuiltIn !== true && data.policyType !== 'builtIn' && !id.startsWith('microsoft-'),
  );
}

/**
 * Custom objects an admin may delete: not the default or initial domain ("Delete domain" refuses
 * them), not the service principal of a Microsoft first-party app.
 */
function deletable(records: EntraSnapshotRecord[]): EntraSnapshotRecord[] {
  return custom(records).filter(
    ({ data }) =>
      data.isDefault !== true && data.isInitial !== true && data.appOwnerOrganizationId !== MICROSOFT_TENANT,
  );
}

/** Whether the answer is the simulator's for a route it does not serve (Graph serves it). */
function unserved(answer: GraphAnswer): boolean {
  const message = JSON.stringify(answer.body);
  return (
    answer.status === 405 || (answer.status === 400 && message.includes('Resource not found for the segment'))
  );
}

/**
 * Deletes one object of the type through Graph as an admin would ("Delete user", "Remove member"
 * with `/$ref`, a schedule's `adminRemove` request...), trying candidates until Graph lets one go.
 * @returns its record id, or why none was deleted
 */
export async function deleteOne(
  graph: GraphTestClient,
  type: EntraResourceType,
  records: EntraSnapshotRecord[],
): Promise<Damage> {
  const rule = NOT_DELETABLE[type];
  if (rule) return { id: null, why: rule };
  let last: GraphAnswer | undefined;
  const schedule = SCHEDULE_REQUESTS[type];
  const link = ENTRA_TYPE_DEFINITIONS[type].link !== undefined;
  for (const record of deletable(records).slice(0, CANDIDATES)) {
    const call = DELETE_CALLS[type]?.(record);
    if (DELETE_CALLS[type] && !call) continue;
    const [method, path] = call
      ? call
      : schedule
        ? ['POST', schedule]
        : ['DELETE', `${itemPath(type, record.id)}${link ? '/$ref' : ''}`];
    last = await graph.call(
      method,
      path,
      call
        ? call[2]
        : schedule
          ? {
              action: 'adminRemove',
              principalId: record.data.principalId,
              roleDefinitionId: record.data.roleDefinitionId,
              directoryScopeId: record.data.directoryScopeId,
              justification: 'Restore fidelity damage',
            }
          : undefined,
    );
    if (unserved(last)) return { id: null, unserved: routeOf(type, method, path, record) };
    if (last.status < 300) return { id: record.id };
  }
  return {
    id: null,
    why: last ? answerText('delete', last) : 'only built-in or default ones, which Graph keeps',
  };
}

/**
 * Changes one object of the type through Graph as an admin would: a writable property of its
 * update operation (CHANGES, else `displayName`), PATCH of the item (PUT for the admin consent
 * request policy, "Update adminConsentRequestPolicy"). The change counts only when the tenant's
 * record is different afterwards (`live`).
 * @returns its record id, or why none was changed
 */
export async function changeOne(
  graph: GraphTestClient,
  type: EntraResourceType,
  records: EntraSnapshotRecord[],
  live: () => EntraSnapshot,
): Promise<Damage> {
  const rule = NOT_CHANGEABLE[type];
  if (rule) return { id: null, why: rule };
  if (records.length === 0) return { id: null, why: 'the only one was deleted' };
  let last: GraphAnswer | undefined;
  for (const record of custom(records).slice(0, CANDIDATES)) {
    const call = CHANGE_CALLS[type]?.(record);
    if (call) {
      last = await graph.call(call[0], call[1], call[2]);
      if (unserved(last)) return { id: null, unserved: routeOf(type, call[0], call[1], record) };
      const after = live()[type]?.find((candidate) => candidate.id === record.id);
      if (last.status < 300 && JSON.stringify(after?.data) !== JSON.stringify(record.data))
        return { id: record.id };
      continue;
    }
    const body = (CHANGES[type] ?? renamed)(record.data);
    if (!body) continue;
    const typed = typeof record.data['@odata.type'] === 'string' && TYPED.has(type);
    const method = type === 'admin_consent_request_policy' ? 'PUT' : 'PATCH';
    last = await graph.call(
      method,
      itemPath(type, record.id),
      typed ? { '@odata.type': record.data['@odata.type'], ...body } : body,
    );
    if (unserved(last))
      return { id: null, unserved: routeOf(type, method, itemPath(type, record.id), record) };
    const after = live()[type]?.find((candidate) => candidate.id === record.id);
    if (last.status < 300 && JSON.stringify(after?.data) !== JSON.stringify(record.data))
      return { id: record.id };
  }
  return { id: null, why: last ? answerText('change', last) : 'only built-in ones, which Graph keeps' };
}

/** `METHOD path` with the record's ids as `{id}`: a route the simulator does not serve. */
function routeOf(type: EntraResourceType, method: string, path: string, record: EntraSnapshotRecord): string {
  if (ENTRA_TYPE_DEFINITIONS[type].kind === 'single') return `the simulator does not serve ${method} ${path}`;
  const ids = record.id.split(':').map(encodeURIComponent);
  const template = path
    .split('/')
    .map((segment) => (ids.includes(segment) ? '{id}' : segment))
    .join('/');
  return `the simulator does not serve ${method} ${template}`;
}

function answerText(what: string, answer: GraphAnswer): string {
  const error = (answer.body as { error?: { code?: string; message?: string } }).error;
  return `Graph answered the ${what} ${answer.status}${error ? ` ${error.code}: ${error.message}` : ''}`;
}

/** The derived types whose updates must name their `@odata.type` ("Update namedLocation", "Update fido2AuthenticationMethodConfiguration"). */
const TYPED = new Set<EntraResourceType>([
  'named_location',
  'authentication_method_configuration',
  'identity_provider',
]);

/** The default change: the display name, as an admin renames an object. */
function renamed(data: Json): Json | null {
  return typeof data.displayName === 'string' ? { displayName: `${data.displayName} (changed)` } : null;
}

const flip = (value: unknown) => value !== true;

/** Per type, the change an admin makes where the display name is not writable or not the type's. */
const CHANGES: Partial<Record<EntraResourceType, (data: Json) => Json | null>> = {
  // "Update organization": technicalNotificationMails is writable, displayName is not
  organization: (data) => ({
    technicalNotificationMails: [
      ...((data.technicalNotificationMails as string[]) ?? []),
      'it@fidelity.example',
    ],
  }),
  // "Update attributeSet", "Update customSecurityAttributeDefinition": their description
  attribute_set: (data) => ({ description: `${String(data.description ?? '')} (changed)` }),
  custom_security_attribute_definition: (data) => ({
    description: `${String(data.description ?? '')} (changed)`,
  }),
  // "Update organizationalBranding"
  organizational_branding: (data) => ({ signInPageText: `${String(data.signInPageText ?? '')} (changed)` }),
  // "Update domain"
  domain: (data) => ({ passwordValidityPeriodInDays: Number(data.passwordValidityPeriodInDays ?? 90) + 1 }),
  // "Update user": a user's job title, as HR changes it
  user: () => ({ jobTitle: 'Changed by the fidelity test' }),
  // "Update groupSetting": the first value toggled
  group_setting: (data) => {
    const values = (data.values as Array<{ name: string; value: string }> | undefined) ?? [];
    if (values.length === 0) return null;
    const [first, ...rest] = values;
    const value = first.value === 'true' ? 'false' : first.value === 'false' ? 'true' : `${first.value}x`;
    return { values: [{ ...first, value }, ...rest] };
  },
  // "Update groupLifecyclePolicy"
  group_lifecycle_policy: (data) => ({ groupLifetimeInDays: Number(data.groupLifetimeInDays ?? 180) + 30 }),
  // "Update federatedIdentityCredential": its name cannot change
  federated_identity_credential: (data) => ({ description: `${String(data.description ?? '')} (changed)` }),
  // "Update a delegated permission grant"
  oauth2_permission_grant: (data) => ({ scope: `${String(data.scope ?? '')} email`.trim() }),
  // "Update authorizationPolicy"
  authorization_policy: (data) => ({ allowedToUseSSPR: flip(data.allowedToUseSSPR) }),
  // "Update authenticationMethodsPolicy"
  authentication_methods_policy: (data) => ({
    policyMigrationState:
      data.policyMigrationState === 'migrationComplete' ? 'migrationInProgress' : 'migrationComplete',
  }),
  // "Update fido2AuthenticationMethodConfiguration" and the other methods' pages
  authentication_method_configuration: (data) => ({
    state: data.state === 'enabled' ? 'disabled' : 'enabled',
  }),
  // "Update identitySecurityDefaultsEnforcementPolicy"
  identity_security_defaults_enforcement_policy: (data) => ({ isEnabled: flip(data.isEnabled) }),
  // "Update adminConsentRequestPolicy" (PUT: the whole policy)
  admin_consent_request_policy: (data) => ({
    isEnabled: data.isEnabled,
    notifyReviewers: flip(data.notifyReviewers),
    remindersEnabled: data.remindersEnabled,
    requestDurationInDays: data.requestDurationInDays,
    reviewers: data.reviewers,
  }),
  // "Update crossTenantAccessPolicy"
  cross_tenant_access_policy: (data) => ({
    allowedCloudEndpoints: (data.allowedCloudEndpoints as string[] | undefined)?.length
      ? []
      : ['microsoftonline.us'],
  }),
  // "Update crossTenantAccessPolicyConfigurationDefault", "Update crossTenantAccessPolicyConfigurationPartner"
  cross_tenant_access_policy_configuration_default: (data) => ({
    inboundTrust: trustFlipped(data.inboundTrust),
  }),
  cross_tenant_access_policy_configuration_partner: (data) => ({
    inboundTrust: trustFlipped(data.inboundTrust),
  }),
};

/** Inbound trust with MFA from the other tenant accepted or no longer. */
function trustFlipped(trust: unknown): Json {
  const current = (trust ?? {}) as Json;
  return {
    isMfaAccepted: flip(current.isMfaAccepted),
    isCompliantDeviceAccepted: current.isCompliantDeviceAccepted ?? false,
    isHybridAzureADJoinedDeviceAccepted: current.isHybridAzureADJoinedDeviceAccepted ?? false,
  };
}
