import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { OktaObject } from '@libs/providers/okta/okta-api-client.js';
import { collectionDefinition } from '@libs/providers/okta/restore/collection-definition.js';
import {
  idParts,
  omit,
  type RestoreDefinition,
  SERVER_OWNED,
} from '@libs/providers/okta/restore/restore-definition.js';
import { caseless } from './definition-helpers.js';

/** What a restore writes of a policy or rule: all but what Okta sets, `system` included (Okta keeps it, recorded). */
const policyWritable = (data: OktaObject): OktaObject => omit(data, [...SERVER_OWNED, 'system']);

const priorityOf = (record: ResourceRecord): number =>
  typeof record.data.priority === 'number' ? record.data.priority : Number.MAX_SAFE_INTEGER;

/**
 * Writes of policies (or of rules) go in ascending priority: Okta moves the others when one takes
 * a priority (a policy created at 1 pushed the default policy from 1 to 2, recorded), so placing
 * each at its backed-up priority from the first down leaves every one where the backup has it.
 */
const byPriority = (a: ResourceRecord, b: ResourceRecord): number => priorityOf(a) - priorityOf(b);

/**
 * Policies API, every type of POLICY_TYPES: created INACTIVE (`activate=false`) so that no
 * half-restored policy applies, then activated when they were ACTIVE; replaced by PUT; deleted
 * whatever their status (recorded). Okta creates the default policy of each type (`system`),
 * which can be changed but not deleted. Names are unique within a type.
 */
const policy = collectionDefinition(
  { path: '/api/v1/policies', params: ['policyId'], lifecycle: true, createQuery: { activate: 'false' } },
  {
    writable: policyWritable,
    naturalKey: (record) => {
      const name = caseless(record.data.name);
      return name === null ? null : `${String(record.data.type)}:${name}`;
    },
    managedBecause: (data) =>
      data.system === true
        ? 'Okta creates the default policy of each type with the org and never deletes it'
        : null,
    sequence: byPriority,
    notes: [
      'Okta assigns app sign-in and user profile policies from each app: a re-created one is assigned again only where a restore of the apps assigns it (app_sign_on_policy)',
    ],
  },
);

/**
 * Rule types of the policies that hold only the rule Okta creates with them: "You can't create
 * additional rules for the PROFILE_ENROLLMENT, POST_AUTH_SESSION, CLIENT_UPDATE, or
 * IDENTITY_CLAIM_SOURCING policies" (createPolicyRule).
 */
const ONE_RULE_POLICY_TYPES = [
  'PROFILE_ENROLLMENT',
  'POST_AUTH_SESSION',
  'CLIENT_UPDATE',
  'IDENTITY_CLAIM_SOURCING',
];

/**
 * Policy rules (record `<policyId>:<ruleId>`), written like policies and in priority order within
 * their policy. Okta creates the default rule of a default policy and the catch-all rule of an app
 * sign-in or user profile policy with the policy (`system`, never deleted): a re-created policy's
 * catch-all rule is matched by name and changed. Names are unique within a policy.
 */
const policyRule = collectionDefinition(
  {
    path: '/api/v1/policies/{policyId}/rules',
    params: ['policyId', 'ruleId'],
    lifecycle: true,
    createQuery: { activate: 'false' },
  },
  {
    writable: policyWritable,
    naturalKey: (record) => {
      const name = caseless(record.data.name);
      return name === null ? null : `${idParts(record.id)[0]}:${name}`;
    },
    managedBecause: (data) => {
      if (data.system === true)
        return 'Okta creates the default and catch-all rules with their policy and never deletes them';
      return ONE_RULE_POLICY_TYPES.includes(String(data.type))
        ? `Okta creates the one rule of a ${String(data.type)} policy with the policy and allows no other`
        : null;
    },
    sequence: byPriority,
    notes: [
      'The default rules of the default authenticator enrollment and IdP discovery policies are read-only: Okta refuses to change them',
      'Rules keep the ids of what they name that a backup does not hold (device assurance policies...): those must still exist',
    ],
  },
);

/** How a restore writes policies and their rules (Policies API). */
export function policyDefinitions() {
  return { policy, policy_rule: policyRule } satisfies Record<string, RestoreDefinition>;
}
