import { CHECK_KEYS, type CheckKey } from '@libs/compliance/check-keys.js';
import type { Check } from '@libs/compliance/compliance-types.js';

/**
 * Why a capability has nothing to judge in Okta Workflows, by the key's first word: Workflows
 * holds flows, tables and connections; people sign in to it through the Okta org, whose
 * connection is checked for everything identity-related (docs/okta-workflows.md).
 */
const REASONS: Readonly<Record<string, string>> = {
  password:
    'Okta Workflows has no passwords of its own: its users sign in through the Okta org, whose password policies the Okta connection is checked for.',
  session:
    'Okta Workflows sessions are Okta sessions: the Okta connection is checked for their lifetime and idle timeout.',
  mfa: 'Okta Workflows has no sign-on policy of its own: MFA is enforced by the Okta org, which the Okta connection is checked for.',
  authenticators:
    'Okta Workflows has no authenticators: they are configured in the Okta org, which the Okta connection is checked for.',
  admins:
    'Workflows administrators hold an Okta admin role: the Okta connection is checked for admin roles and their holders.',
  users:
    "Okta Workflows has no user directory: accounts are the Okta org's, which the Okta connection is checked for.",
  access:
    'Okta Workflows assigns no apps and sets no access conditions: the Okta connection is checked for those.',
  network:
    "Okta Workflows has no network zones: zones are the Okta org's, which the Okta connection is checked for.",
  integrations:
    "Okta Workflows' connections are judged as flows, not as API service integrations: the Okta connection is checked for those.",
  hooks: 'Okta Workflows has no event hooks of its own: the Okta connection is checked for them.',
  logging:
    "Okta Workflows' activity is in the Okta org's System Log: the Okta connection is checked for log streaming.",
  risk: 'Okta Workflows evaluates no sign-in risk: sign-ins go through the Okta org.',
  apps: 'Okta Workflows has no app registration or consent of its own.',
  guests: 'Okta Workflows has no guest users.',
};

/** The keys Okta Workflows cannot be judged on: every provider capability (not the service's own). */
const NOT_APPLICABLE = CHECK_KEYS.filter((key) => !key.startsWith('backup.'));

function notApplicable(key: CheckKey): Check {
  const reason = REASONS[key.slice(0, key.indexOf('.'))];
  if (reason === undefined) throw new Error(`no Okta Workflows reason for ${key}`);
  return {
    key,
    id: `okta_workflows.${key}`,
    title: 'Not applicable to Okta Workflows',
    remediation: 'None in Okta Workflows: check the Okta connection of the same org.',
    reads: [],
    start: () => ({
      finish: () => ({
        status: 'not_applicable',
        resourceType: '',
        resources: [],
        total: 0,
        pointers: [],
        observed: null,
        expected: null,
        note: reason,
      }),
    }),
  };
}

/**
 * Okta Workflows' compliance catalogue: every control but the backup ones is `not_applicable`
 * with its reason, never a bare `manual` (the backup cadence and restore checks still apply).
 * @throws Error at load when a check key has no reason here
 */
export const WORKFLOWS_CHECKS: readonly Check[] = NOT_APPLICABLE.map(notApplicable);
