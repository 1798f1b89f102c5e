import { type ChangeFacts, changedPointers, valueAt } from '@libs/diff/change-facts.js';
import type { SeverityRule } from '@libs/diff/severity-rule.js';
import { ENTRA_DEPENDENCY_RULES, ENTRA_FEDERATION_RULES } from './entra-dependency-severity-rules.js';

/**
 * Lists of a conditional access policy's `conditions` whose growth lets more sign-ins escape
 * it (an exclusion) and whose shrinking does too (an inclusion): Graph's
 * `conditionalAccessConditionSet`, `conditionalAccessUsers`, `conditionalAccessApplications`,
 * `conditionalAccessLocations`, `conditionalAccessPlatforms`.
 */
const EXCLUSIONS = [
  'conditions.users.excludeUsers',
  'conditions.users.excludeGroups',
  'conditions.users.excludeRoles',
  'conditions.applications.excludeApplications',
  'conditions.locations.excludeLocations',
  'conditions.platforms.excludePlatforms',
];
const INCLUSIONS = [
  'conditions.users.includeUsers',
  'conditions.users.includeGroups',
  'conditions.users.includeRoles',
  'conditions.applications.includeApplications',
  'conditions.locations.includeLocations',
  'conditions.platforms.includePlatforms',
  'conditions.clientAppTypes',
];

function list(data: Record<string, unknown> | undefined, path: string): string[] {
  const value = valueAt(data, path);
  return Array.isArray(value) ? value.map(String) : [];
}

const isType =
  (type: string, ...actions: ChangeFacts['action'][]) =>
  (facts: ChangeFacts): boolean =>
    facts.resourceType === type && (actions.length === 0 || actions.includes(facts.action));

/**
 * A policy that was enforced is no longer: `state` went from `enabled` to `disabled` or to
 * `enabledForReportingButNotEnforced` (report-only enforces nothing; Graph
 * `conditionalAccessPolicy.state`).
 */
export function conditionalAccessDisabled(facts: ChangeFacts): boolean {
  return (
    isType('conditional_access_policy', 'modified')(facts) &&
    valueAt(facts.before, 'state') === 'enabled' &&
    valueAt(facts.after, 'state') !== 'enabled'
  );
}

/**
 * A policy covers less: an exclusion gained an entry, an inclusion lost one, or a built-in grant
 * control (`block`, `mfa`, `compliantDevice`...) was dropped, or its authentication strength
 * requirement was removed.
 */
export function conditionalAccessNarrowed(facts: ChangeFacts): boolean {
  if (!isType('conditional_access_policy', 'modified')(facts)) return false;
  const grew = (path: string): boolean =>
    list(facts.after, path).some((entry) => !list(facts.before, path).includes(entry));
  const lost = (path: string): boolean =>
    list(facts.before, path).some((entry) => !list(facts.after, path).includes(entry));
  return (
    EXCLUSIONS.some(grew) ||
    INCLUSIONS.some(lost) ||
    lost('grantControls.builtInControls') ||
    (valueAt(facts.before, 'grantControls.authenticationStrength') != null &&
      valueAt(facts.after, 'grantControls.authenticationStrength') == null)
  );
}

/** A named location became trusted (`ipNamedLocation.isTrusted`), or was created trusted. */
function namedLocationTrusted(facts: ChangeFacts): boolean {
  return (
    isType('named_location', 'added', 'modified')(facts) &&
    valueAt(facts.after, 'isTrusted') === true &&
    valueAt(facts.before, 'isTrusted') !== true
  );
}

/** Global Administrator's role definition (and template) id, the same in every tenant (built-in roles reference). */
const GLOBAL_ADMINISTRATOR = '62e90394-69f5-4237-9190-012177145e10';
/** Directory role grants: unified RBAC assignments and PIM's eligibility and assignment schedules. */
const ROLE_GRANTS = ['role_assignment', 'role_eligibility_schedule', 'role_assignment_schedule'];

/**
 * Someone became, or may now become, Global Administrator: a role assignment, an active (PIM
 * assignment schedule) or an eligible one (eligibility schedule, activated at will) of the Global
 * Administrator role appeared, or an existing one was pointed at it (`roleDefinitionId`).
 */
function globalAdministratorAdded(facts: ChangeFacts): boolean {
  return (
    ROLE_GRANTS.includes(facts.resourceType) &&
    (facts.action === 'added' || facts.action === 'modified') &&
    valueAt(facts.after, 'roleDefinitionId') === GLOBAL_ADMINISTRATOR &&
    (facts.action === 'added' ||
      valueAt(facts.before, 'roleDefinitionId') !== GLOBAL_ADMINISTRATOR ||
      valueAt(facts.before, 'principalId') !== valueAt(facts.after, 'principalId'))
  );
}

/** Security defaults went from enforced to off (`identitySecurityDefaultsEnforcementPolicy.isEnabled`). */
function securityDefaultsOff(facts: ChangeFacts): boolean {
  return (
    isType('identity_security_defaults_enforcement_policy', 'modified')(facts) &&
    valueAt(facts.before, 'isEnabled') === true &&
    valueAt(facts.after, 'isEnabled') !== true
  );
}

/** Key ids of an application's or service principal's credentials (`keyCredentials`, `passwordCredentials`). */
function credentialIds(data: Record<string, unknown> | undefined): string[] {
  return ['keyCredentials', 'passwordCredentials'].flatMap((member) => {
    const credentials = valueAt(data, member);
    return Array.isArray(credentials)
      ? credentials.map((credential) => String((credential as Record<string, unknown>)?.keyId))
      : [];
  });
}

/**
 * An app gained a way to sign in as itself: a new secret or certificate on an application or
 * service principal (a known persistence technique), or a federated identity credential.
 */
function appCredentialAdded(facts: ChangeFacts): boolean {
  if (isType('federated_identity_credential', 'added', 'modified')(facts)) return true;
  if (
    !isType('application', 'added', 'modified')(facts) &&
    !isType('service_principal', 'added', 'modified')(facts)
  )
    return false;
  const before = credentialIds(facts.before);
  return credentialIds(facts.after).some((id) => !before.includes(id));
}

/** A user's `accountEnabled` changed (signing in allowed or blocked). */
function userEnabledChanged(facts: ChangeFacts): boolean {
  return isType('user', 'modified')(facts) && changedPointers(facts).includes('/accountEnabled');
}

/**
 * Entra ID's severity table (DESIGN section 4 values), most specific first; docs/severity.md
 * ("Microsoft Entra ID") lists it and a test checks the two agree.
 */
export const ENTRA_SEVERITY_RULES: readonly SeverityRule[] = [
  {
    id: 'entra-global-admin-added',
    severity: 'critical',
    description:
      'A new Global Administrator: a role assignment, a PIM assignment schedule or a PIM eligibility of the Global Administrator role was added, or one was pointed at it or at another principal.',
    applies: globalAdministratorAdded,
  },
  ...ENTRA_FEDERATION_RULES,
  {
    id: 'entra-security-defaults-off',
    severity: 'critical',
    description: 'Security defaults were turned off (`identitySecurityDefaultsEnforcementPolicy.isEnabled`).',
    applies: securityDefaultsOff,
  },
  {
    id: 'entra-ca-policy-removed',
    severity: 'critical',
    description: 'A conditional access policy was deleted.',
    applies: isType('conditional_access_policy', 'removed'),
  },
  {
    id: 'entra-ca-policy-disabled',
    severity: 'critical',
    description:
      'An enforced conditional access policy (`state: enabled`) was turned off or set to report-only (`enabledForReportingButNotEnforced`).',
    applies: conditionalAccessDisabled,
  },
  {
    id: 'entra-ca-policy-narrowed',
    severity: 'critical',
    description:
      'A conditional access policy covers less: an exclusion (users, groups, roles, apps, locations, platforms) gained an entry, an inclusion (or `clientAppTypes`) lost one, or a grant control or authentication strength was dropped.',
    applies: conditionalAccessNarrowed,
  },
  {
    id: 'entra-named-location-trusted',
    severity: 'high',
    description:
      'A named location was marked trusted, or created trusted (conditional access may then skip MFA from it).',
    applies: namedLocationTrusted,
  },
  {
    id: 'entra-ca-policy-changed',
    severity: 'high',
    description: 'Any other change to a conditional access policy, or a new one.',
    applies: isType('conditional_access_policy'),
  },
  {
    id: 'entra-app-credential-added',
    severity: 'high',
    description:
      'An application or service principal gained a secret or certificate (a new `keyId`), or an application a federated identity credential: a new way to sign in as the app.',
    applies: appCredentialAdded,
  },
  {
    id: 'entra-role-changed',
    severity: 'high',
    description:
      'Any other change to directory roles: custom role definitions, role assignments, PIM eligibility and assignment schedules, administrative unit scoped role members.',
    applies: (facts) =>
      [...ROLE_GRANTS, 'role_definition', 'scoped_role_membership'].includes(facts.resourceType),
  },
  {
    id: 'entra-consent-granted',
    severity: 'high',
    description:
      'An app was granted access: an app role assignment or a delegated permission grant was added or changed.',
    applies: (facts) =>
      isType('app_role_assignment', 'added', 'modified')(facts) ||
      isType('oauth2_permission_grant', 'added', 'modified')(facts),
  },
  {
    id: 'entra-auth-policy-changed',
    severity: 'high',
    description:
      'An authentication, authorization or consent policy changed: the authentication methods policy or a method configuration, an authentication strength, the authorization policy, security defaults, the admin consent request policy, a permission grant policy (who may sign in how, what users may consent to).',
    applies: (facts) =>
      [
        'authentication_methods_policy',
        'authentication_method_configuration',
        'authentication_strength_policy',
        'authorization_policy',
        'identity_security_defaults_enforcement_policy',
        'admin_consent_request_policy',
        'permission_grant_policy',
      ].includes(facts.resourceType),
  },
  {
    id: 'entra-cross-tenant-changed',
    severity: 'high',
    description:
      'The cross-tenant access policy, its default or a partner changed (which other tenants may reach this one, and whose MFA is trusted).',
    applies: (facts) => facts.resourceType.startsWith('cross_tenant_access_policy'),
  },
  {
    id: 'entra-named-location-changed',
    severity: 'high',
    description: 'Any other change to a named location (locations gate conditional access policies).',
    applies: isType('named_location'),
  },
  {
    id: 'entra-domain-changed',
    severity: 'high',
    description: 'A domain was added, changed or removed (federation and where users sign in).',
    applies: isType('domain'),
  },
  ...ENTRA_DEPENDENCY_RULES,
  {
    id: 'entra-app-changed',
    severity: 'medium',
    description:
      'Any other change to an app: an application, service principal, owner, federated credential or extension property, an app role assignment or grant removed, a token lifetime, token issuance, claims mapping or home realm discovery policy.',
    applies: (facts) =>
      [
        'application',
        'application_owner',
        'service_principal',
        'federated_identity_credential',
        'extension_property',
        'app_role_assignment',
        'oauth2_permission_grant',
        'token_lifetime_policy',
        'token_issuance_policy',
        'claims_mapping_policy',
        'home_realm_discovery_policy',
      ].includes(facts.resourceType),
  },
  {
    id: 'entra-group-changed',
    severity: 'medium',
    description:
      'A group, its members or owners, a group setting or lifecycle policy, an administrative unit or its members changed.',
    applies: (facts) =>
      [
        'group',
        'group_membership',
        'group_owner',
        'group_setting',
        'group_lifecycle_policy',
        'administrative_unit',
        'administrative_unit_member',
      ].includes(facts.resourceType),
  },
  {
    id: 'entra-user-enabled-changed',
    severity: 'medium',
    description: 'A user was allowed or blocked from signing in (`accountEnabled`).',
    applies: userEnabledChanged,
  },
  {
    id: 'entra-user-changed',
    severity: 'low',
    description: "A user was added or removed, or a user's properties changed.",
    applies: isType('user'),
  },
  {
    id: 'entra-other-change',
    severity: 'low',
    description: "Any change no rule above names (the organization's settings...).",
    applies: () => true,
  },
];
