import { type ChangeFacts, changedPointers, valueAt } from '@libs/diff/change-facts.js';
import type { SeverityRule } from '@libs/diff/severity-rule.js';

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
    id: 'entra-auth-policy-changed',
    severity: 'high',
    description:
      'The authentication methods policy or the authorization policy changed (who may sign in how, what users may consent to).',
    applies: (facts) =>
      isType('authentication_methods_policy')(facts) || isType('authorization_policy')(facts),
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
  {
    id: 'entra-group-changed',
    severity: 'medium',
    description: 'A group or group membership changed.',
    applies: (facts) => isType('group')(facts) || isType('group_membership')(facts),
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
