import type { Collection } from './tenant-state.js';

/**
 * How Entra logs a write of one kind of object: its audit category, the service that logs it, the
 * target's type and the activity names, from "Microsoft Entra audit log categories and activities"
 * (https://learn.microsoft.com/entra/identity/monitoring-health/reference-audit-activities):
 * "Add conditional access policy" (Policy, Conditional Access), "Update user" (UserManagement,
 * Core Directory), "Add member to group" (GroupManagement), "Authentication Methods Policy Update"
 * (Policy, Authentication Methods), "Add eligible member to role" (RoleManagement, PIM)...
 */
export interface AuditedKind {
  /** matched against the route's template */
  template: RegExp;
  category: string;
  loggedByService: string;
  /** the target resource's `type` */
  targetType: string;
  /** the activity of a POST, PATCH or DELETE, when not `Add|Update|Delete <noun>` */
  activity?: Partial<Record<string, string>>;
  noun: string;
  /** where the target lives: its state before and after the write are compared */
  collection?: Collection;
  /** the collection holds one object, the target of every write of the kind (a policy singleton) */
  singleton?: true;
  /** the whole object is logged as one modified property of this name (policies are) */
  wholeAs?: string;
  /** the target's id is the member named by the request, the group's a second target */
  memberLink?: true;
}

const CORE = 'Core Directory';
const CA = 'Conditional Access';

/** Write kinds, most specific first; a write matching none is logged under `Other`. */
export const AUDITED_KINDS: readonly AuditedKind[] = [
  {
    template: /^\/v1\.0\/identity\/conditionalAccess\/policies/,
    category: 'Policy',
    loggedByService: CA,
    targetType: 'Policy',
    noun: 'conditional access policy',
    collection: 'conditionalAccessPolicies',
    wholeAs: 'ConditionalAccessPolicy',
  },
  {
    template: /^\/v1\.0\/identity\/conditionalAccess\/namedLocations/,
    category: 'Policy',
    loggedByService: CA,
    targetType: 'Policy',
    noun: 'named location',
    collection: 'namedLocations',
    wholeAs: 'NamedLocation',
  },
  {
    template: /^\/v1\.0\/policies\/authenticationMethodsPolicy/,
    category: 'Policy',
    loggedByService: 'Authentication Methods',
    targetType: 'Policy',
    noun: 'authentication methods policy',
    activity: { PATCH: 'Authentication Methods Policy Update', POST: 'Authentication Methods Policy Update' },
    collection: 'authenticationMethodsPolicy',
    singleton: true,
    wholeAs: 'AuthenticationMethodsPolicy',
  },
  {
    template: /^\/v1\.0\/policies\/authenticationStrengthPolicies/,
    category: 'Policy',
    loggedByService: CA,
    targetType: 'Policy',
    noun: 'authentication strength policy',
    activity: { POST: 'Add authentication strength policy' },
    collection: 'authenticationStrengthPolicies',
    wholeAs: 'AuthenticationStrengthPolicy',
  },
  {
    template: /^\/v1\.0\/policies\/authorizationPolicy/,
    category: 'Policy',
    loggedByService: CORE,
    targetType: 'Policy',
    noun: 'authorization policy',
    collection: 'authorizationPolicy',
    singleton: true,
  },
  {
    template: /^\/v1\.0\/policies\/identitySecurityDefaultsEnforcementPolicy/,
    category: 'Policy',
    loggedByService: CORE,
    targetType: 'Policy',
    noun: 'security defaults policy',
    collection: 'identitySecurityDefaultsEnforcementPolicy',
    singleton: true,
  },
  {
    template: /^\/v1\.0\/policies\/adminConsentRequestPolicy/,
    category: 'Policy',
    loggedByService: CORE,
    targetType: 'Policy',
    noun: 'admin consent request policy',
    collection: 'adminConsentRequestPolicy',
    singleton: true,
  },
  {
    template: /^\/v1\.0\/policies\/crossTenantAccessPolicy/,
    category: 'CrossTenantAccessSettings',
    loggedByService: CORE,
    targetType: 'Policy',
    noun: 'cross-tenant access setting',
  },
  {
    template: /^\/v1\.0\/policies\//,
    category: 'Policy',
    loggedByService: CORE,
    targetType: 'Policy',
    noun: 'policy',
  },
  {
    template: /^\/v1\.0\/groups\/\{id\}\/members/,
    category: 'GroupManagement',
    loggedByService: CORE,
    targetType: 'User',
    noun: 'member',
    activity: { POST: 'Add member to group', DELETE: 'Remove member from group' },
    memberLink: true,
  },
  {
    template: /^\/v1\.0\/groups\/\{id\}\/owners/,
    category: 'GroupManagement',
    loggedByService: CORE,
    targetType: 'User',
    noun: 'owner',
    activity: { POST: 'Add owner to group', DELETE: 'Remove owner from group' },
    memberLink: true,
  },
  {
    template: /^\/v1\.0\/groups/,
    category: 'GroupManagement',
    loggedByService: CORE,
    targetType: 'Group',
    noun: 'group',
    collection: 'groups',
  },
  {
    template: /^\/v1\.0\/users/,
    category: 'UserManagement',
    loggedByService: CORE,
    targetType: 'User',
    noun: 'user',
    collection: 'users',
  },
  {
    template: /^\/v1\.0\/roleManagement\/directory\/roleEligibilityScheduleRequests/,
    category: 'RoleManagement',
    loggedByService: 'PIM',
    targetType: 'Role',
    noun: 'eligible member to role',
    activity: { POST: 'Add eligible member to role in PIM requested (permanent)' },
  },
  {
    template: /^\/v1\.0\/roleManagement\/directory\/roleAssignmentScheduleRequests/,
    category: 'RoleManagement',
    loggedByService: 'PIM',
    targetType: 'Role',
    noun: 'member to role',
    activity: { POST: 'Add member to role in PIM requested (permanent)' },
  },
  {
    template: /^\/v1\.0\/roleManagement\/directory\/roleAssignments/,
    category: 'RoleManagement',
    loggedByService: CORE,
    targetType: 'Role',
    noun: 'role assignment',
    activity: { POST: 'Add member to role', DELETE: 'Remove member from role' },
    collection: 'roleAssignments',
  },
  {
    template: /^\/v1\.0\/roleManagement\/directory\/roleDefinitions/,
    category: 'RoleManagement',
    loggedByService: CORE,
    targetType: 'Role',
    noun: 'role definition',
    collection: 'roleDefinitions',
  },
  {
    template: /^\/v1\.0\/servicePrincipals/,
    category: 'ApplicationManagement',
    loggedByService: CORE,
    targetType: 'ServicePrincipal',
    noun: 'service principal',
    collection: 'servicePrincipals',
  },
  {
    template: /^\/v1\.0\/applications/,
    category: 'ApplicationManagement',
    loggedByService: CORE,
    targetType: 'Application',
    noun: 'application',
    collection: 'applications',
  },
  {
    template: /^\/v1\.0\/oauth2PermissionGrants/,
    category: 'ApplicationManagement',
    loggedByService: CORE,
    targetType: 'ServicePrincipal',
    noun: 'delegated permission grant',
    activity: { DELETE: 'Remove delegated permission grant' },
    collection: 'oauth2PermissionGrants',
  },
  {
    template: /^\/v1\.0\/directory\/administrativeUnits/,
    category: 'AdministrativeUnit',
    loggedByService: CORE,
    targetType: 'Other',
    noun: 'administrative unit',
    collection: 'administrativeUnits',
  },
  {
    template: /^\/v1\.0\/directory\/deletedItems\/\{id\}\/restore/,
    category: 'DirectoryManagement',
    loggedByService: CORE,
    targetType: 'Other',
    noun: 'deleted item',
    activity: { POST: 'Restore deleted item' },
  },
  {
    template: /^\/v1\.0\/directory\/deletedItems/,
    category: 'DirectoryManagement',
    loggedByService: CORE,
    targetType: 'Other',
    noun: 'deleted item',
    activity: { DELETE: 'Hard delete item' },
  },
  {
    template: /^\/v1\.0\/organization/,
    category: 'DirectoryManagement',
    loggedByService: CORE,
    targetType: 'Directory',
    noun: 'company information',
    activity: { PATCH: 'Set company information', POST: 'Set company information' },
    collection: 'organization',
  },
  {
    template: /^\/v1\.0\/(groupSettings|groupLifecyclePolicies|domains)/,
    category: 'DirectoryManagement',
    loggedByService: CORE,
    targetType: 'Directory',
    noun: 'directory setting',
  },
];

/** The verb of an activity and its `operationType`, by method. */
const VERBS: Readonly<Record<string, string>> = {
  POST: 'Add',
  PATCH: 'Update',
  PUT: 'Update',
  DELETE: 'Delete',
};

/** The kind of a write to `template`; a template matching none is logged under `Other`. */
export function auditedKind(template: string): AuditedKind {
  return (
    AUDITED_KINDS.find((kind) => kind.template.test(template)) ?? {
      template: /./,
      category: 'Other',
      loggedByService: CORE,
      targetType: 'Other',
      noun:
        template
          .split('/')
          .filter((part) => part && !part.startsWith('{'))
          .pop() ?? 'object',
    }
  );
}

/** The activity's name and operation type for `method` on `kind`. */
export function activityOf(kind: AuditedKind, method: string): { name: string; operationType: string } {
  const verb = VERBS[method] ?? 'Update';
  const name = kind.activity?.[method] ?? `${verb} ${kind.noun}`;
  const linked = /^(Add|Remove) (member|owner|eligible member)/.exec(name);
  return { name, operationType: linked ? (linked[1] === 'Add' ? 'Assign' : 'Unassign') : verb };
}
