import {
  type ChangeFacts,
  changedAt,
  changedPointers,
  recordType,
  valueAt,
} from '@libs/diff/change-facts.js';
import type { SeverityRule } from '@libs/diff/severity-rule.js';
import {
  authorizationServerAccessOpened,
  mfaEnrollmentWeakened,
  passwordPolicyWeakened,
  signOnRuleWeakened,
} from './weakening.js';

/**
 * Types whose records limit their parent's reach, and the parent type: an admin role assignment
 * of a standard role applies to the whole org until it has targets (Okta Role Targets API), so
 * its last target going widens it.
 */
export const OKTA_SCOPING_PARENTS: Readonly<Record<string, string>> = {
  admin_role_target: 'admin_role_assignment',
};

/** Policies that decide who gets in and how (Okta Policy API types). */
const SECURITY_POLICY_TYPES = new Set(['PASSWORD', 'MFA_ENROLL', 'OKTA_SIGN_ON', 'ACCESS_POLICY']);
/** Rules of sign-on policies: Okta sign-on (SIGN_ON) and app access (ACCESS_POLICY). */
const SIGN_ON_RULE_TYPES = new Set(['SIGN_ON', 'ACCESS_POLICY']);
const BRANDING_TYPES = new Set(['brand', 'brand_theme', 'email_template', 'brand_page']);
const SCHEMA_TYPES = new Set([
  'user_schema',
  'group_schema',
  'user_type',
  'linked_object',
  'profile_mapping',
]);
const GROUP_TYPES = new Set(['group', 'group_rule', 'group_membership', 'group_owner']);
const ASSIGNMENT_TYPES = new Set(['app_user_assignment', 'app_group_assignment']);
const HOOK_TYPES = new Set(['event_hook', 'inline_hook']);
/** App fields that only change how the app looks to users (Okta Applications API). */
const APP_COSMETIC_POINTERS = [/^\/label$/, /^\/visibility(\/|$)/, /^\/accessibility\/errorRedirectUrl$/];
/** App fields that decide how users sign in to it. */
const APP_SIGN_ON_POINTERS = [
  /^\/signOnMode$/,
  /^\/credentials(\/|$)/,
  /^\/settings\/(signOn|oauthClient|app)(\/|$)/,
];

const is =
  (type: string, ...actions: ChangeFacts['action'][]) =>
  (facts: ChangeFacts): boolean =>
    facts.resourceType === type && (actions.length === 0 || actions.includes(facts.action));
const securityPolicy = (facts: ChangeFacts): boolean =>
  facts.resourceType === 'policy' && SECURITY_POLICY_TYPES.has(String(recordType(facts)));
const onlyPointers = (facts: ChangeFacts, patterns: RegExp[]): boolean =>
  changedPointers(facts).every((pointer) => patterns.some((pattern) => pattern.test(pointer)));
const deactivated = (facts: ChangeFacts): boolean =>
  valueAt(facts.before, 'status') === 'ACTIVE' && valueAt(facts.after, 'status') === 'INACTIVE';

/**
 * The severity table (DESIGN section 4 values), most specific first. docs/severity.md lists it;
 * a test checks the two agree and that every rule has an example.
 */
export const OKTA_SEVERITY_RULES: readonly SeverityRule[] = [
  {
    id: 'admin-role-granted',
    severity: 'critical',
    description: 'An administrator role was assigned to a user or group.',
    applies: is('admin_role_assignment', 'added'),
  },
  {
    id: 'admin-role-widened',
    severity: 'critical',
    description:
      'The last target of a scoped admin role was removed while the role stayed: it now applies to every group or app of the org.',
    applies: (facts) =>
      is('admin_role_target', 'removed')(facts) &&
      facts.scope?.parentKept === true &&
      facts.scope.siblings === 0,
  },
  {
    id: 'security-policy-removed',
    severity: 'critical',
    description: 'A password, MFA enrolment, Okta sign-on or app access policy was deleted.',
    applies: (facts) => facts.action === 'removed' && securityPolicy(facts),
  },
  {
    id: 'security-policy-deactivated',
    severity: 'critical',
    description: 'A password, MFA enrolment, Okta sign-on or app access policy went from ACTIVE to INACTIVE.',
    applies: (facts) => facts.action === 'modified' && securityPolicy(facts) && deactivated(facts),
  },
  {
    id: 'password-policy-weakened',
    severity: 'critical',
    description:
      'A password policy got weaker: shorter minimum length, fewer required character classes, username allowed, shorter history or minimum age, longer or unlimited maximum age, more or unlimited lockout attempts.',
    applies: (facts) =>
      facts.action === 'modified' && recordType(facts) === 'PASSWORD' && passwordPolicyWeakened(facts),
  },
  {
    id: 'mfa-enrollment-weakened',
    severity: 'critical',
    description: 'An MFA enrolment policy no longer requires an authenticator it required.',
    applies: (facts) =>
      facts.action === 'modified' && recordType(facts) === 'MFA_ENROLL' && mfaEnrollmentWeakened(facts),
  },
  {
    id: 'sign-on-rule-removed',
    severity: 'critical',
    description: 'A rule of an Okta sign-on or app access policy was deleted.',
    applies: (facts) =>
      facts.resourceType === 'policy_rule' &&
      facts.action === 'removed' &&
      SIGN_ON_RULE_TYPES.has(String(recordType(facts))),
  },
  {
    id: 'sign-on-rule-weakened',
    severity: 'critical',
    description:
      'A sign-on or access rule lets more through: DENY became ALLOW, a second factor is no longer required, or its network zone condition was dropped.',
    applies: (facts) =>
      facts.resourceType === 'policy_rule' && facts.action === 'modified' && signOnRuleWeakened(facts),
  },
  {
    id: 'authorization-server-access-opened',
    severity: 'critical',
    description:
      'An authorization server policy or rule now admits all clients, everyone or every scope, or allows more grant types.',
    applies: (facts) =>
      (facts.resourceType === 'authorization_server_policy' ||
        facts.resourceType === 'authorization_server_policy_rule') &&
      facts.action !== 'removed' &&
      authorizationServerAccessOpened(facts),
  },
  {
    id: 'authenticator-disabled',
    severity: 'critical',
    description: 'An authenticator was deactivated or deleted.',
    applies: (facts) =>
      facts.resourceType === 'authenticator' &&
      (facts.action === 'removed' || (facts.action === 'modified' && deactivated(facts))),
  },
  {
    id: 'admin-role-reach-grown',
    severity: 'high',
    description:
      'A group or app was added to the targets of an admin role already limited to others: it manages more.',
    applies: (facts) =>
      is('admin_role_target', 'added')(facts) && facts.scope?.parentKept === true && facts.scope.siblings > 0,
  },
  {
    id: 'admin-role-narrowed',
    severity: 'low',
    description:
      'Any other change of an admin role target: the first target of a role (it no longer applies org-wide), a target removed while others remain, or targets granted or revoked with their role (rated by admin-role-granted or admin-role-changed).',
    applies: is('admin_role_target'),
  },
  {
    id: 'admin-role-changed',
    severity: 'high',
    description:
      'A custom admin role or resource set was created or changed, or an admin role assignment removed.',
    applies: (facts) =>
      facts.resourceType === 'custom_admin_role' ||
      facts.resourceType === 'resource_set' ||
      facts.resourceType === 'admin_role_assignment',
  },
  {
    id: 'policy-changed',
    severity: 'high',
    description: 'Any other change to a policy or policy rule.',
    applies: (facts) => facts.resourceType === 'policy' || facts.resourceType === 'policy_rule',
  },
  {
    id: 'authorization-server-changed',
    severity: 'high',
    description: 'Any other change to an authorization server, its scopes, claims, policies or rules.',
    applies: (facts) => facts.resourceType.startsWith('authorization_server'),
  },
  {
    id: 'authenticator-changed',
    severity: 'high',
    description: 'Any other change to an authenticator.',
    applies: is('authenticator'),
  },
  {
    id: 'identity-provider-changed',
    severity: 'high',
    description: 'An identity provider was added, changed or removed (who can sign in, and as whom).',
    applies: is('identity_provider'),
  },
  {
    id: 'app-added',
    severity: 'high',
    description: 'A new app integration.',
    applies: is('app', 'added'),
  },
  {
    id: 'app-removed',
    severity: 'high',
    description: 'An app integration was deleted.',
    applies: is('app', 'removed'),
  },
  {
    id: 'app-cosmetic',
    severity: 'info',
    description: "Only an app's label or visibility changed.",
    applies: (facts) => is('app', 'modified')(facts) && onlyPointers(facts, APP_COSMETIC_POINTERS),
  },
  {
    id: 'app-sign-on-changed',
    severity: 'high',
    description: "An app's sign-on mode, credentials scheme, OAuth client or sign-on settings changed.",
    applies: (facts) =>
      is('app', 'modified')(facts) &&
      changedPointers(facts).some((pointer) => APP_SIGN_ON_POINTERS.some((pattern) => pattern.test(pointer))),
  },
  {
    id: 'app-changed',
    severity: 'medium',
    description: 'Any other change to an app (status, features, settings).',
    applies: (facts) =>
      facts.resourceType === 'app' ||
      (facts.resourceType.startsWith('app_') && !ASSIGNMENT_TYPES.has(facts.resourceType)),
  },
  {
    id: 'network-zone-changed',
    severity: 'high',
    description: 'A network zone was added, changed or removed (zones gate sign-on and access rules).',
    applies: is('network_zone'),
  },
  {
    id: 'hook-added-or-changed',
    severity: 'high',
    description: 'An event or inline hook was added or changed (it receives org data or alters flows).',
    applies: (facts) => HOOK_TYPES.has(facts.resourceType) && facts.action !== 'removed',
  },
  {
    id: 'trusted-origin-added-or-changed',
    severity: 'high',
    description: 'A trusted origin (CORS or redirect) was added or changed.',
    applies: (facts) => facts.resourceType === 'trusted_origin' && facts.action !== 'removed',
  },
  {
    id: 'custom-domain-changed',
    severity: 'high',
    description: 'A custom domain was added, changed or removed (where users type their password).',
    applies: is('custom_domain'),
  },
  {
    id: 'behavior-changed',
    severity: 'medium',
    description: 'A behavior detection rule changed (it feeds risk-based sign-on).',
    applies: is('behavior'),
  },
  {
    id: 'integration-removed',
    severity: 'medium',
    description: 'A hook or trusted origin was removed.',
    applies: (facts) => HOOK_TYPES.has(facts.resourceType) || facts.resourceType === 'trusted_origin',
  },
  {
    id: 'group-changed',
    severity: 'medium',
    description: 'A group, group rule, group owner or group membership changed.',
    applies: (facts) => GROUP_TYPES.has(facts.resourceType),
  },
  {
    id: 'app-assignment-changed',
    severity: 'medium',
    description: 'A user or group was assigned to or removed from an app.',
    applies: (facts) => ASSIGNMENT_TYPES.has(facts.resourceType),
  },
  {
    id: 'schema-changed',
    severity: 'medium',
    description: 'A user or group schema, user type, linked object or profile mapping changed.',
    applies: (facts) => SCHEMA_TYPES.has(facts.resourceType),
  },
  {
    id: 'user-status-changed',
    severity: 'medium',
    description: "A user's status changed (activated, suspended, deprovisioned...).",
    applies: (facts) => is('user', 'modified')(facts) && changedAt(facts, 'status'),
  },
  {
    id: 'user-changed',
    severity: 'low',
    description: "A user was added or removed, or a user's profile changed.",
    applies: is('user'),
  },
  {
    id: 'branding-changed',
    severity: 'info',
    description: 'A brand, theme, email template or page changed (cosmetic).',
    applies: (facts) => BRANDING_TYPES.has(facts.resourceType),
  },
  {
    id: 'other-change',
    severity: 'low',
    description: 'Any change no rule above names.',
    applies: () => true,
  },
];
