import { accessDenied, notFound, validationFailed } from '@libs/simulators/okta/http/okta-error.js';
import { queryFlag } from '@libs/simulators/okta/http/request-body.js';
import type { Route } from '@libs/simulators/kit/http/router.js';
import type { OrgContext } from '@libs/simulators/okta/org-context.js';
import { PAGE_LIMITS } from '@libs/simulators/okta/query/page-limits.js';
import type { Entry, Json } from '@libs/simulators/okta/store/entry.js';
import { ID_PREFIX, oktaId, oktaTimestamp } from '@libs/simulators/okta/store/okta-ids.js';
import { collectionRoutes } from './collection-routes.js';
import {
  arrangePriorities,
  CATCH_ALL_PRIORITY,
  policyOrder,
  type PriorityGroup,
  ruleOrder,
} from './policy-priorities.js';
import { ruleTypeFor } from './policy-rule-type.js';
import { requireText } from './validation.js';

/** Next priority: after the last non-catch-all entry (Okta appends new ones before defaults). */
function nextPriority(priorities: Iterable<unknown>): number {
  let max = 0;
  for (const p of priorities) if (typeof p === 'number' && p < 99) max = Math.max(max, p);
  return max + 1;
}

/**
 * The actions of the catch-all rule Okta creates with a new policy of these types, as recorded
 * (createPolicy, then listPolicyRules); null values of the recording left out, as generated
 * objects do.
 */
const CATCH_ALL_ACTIONS: Readonly<Record<string, Json>> = {
  ACCESS_POLICY: {
    appSignOn: {
      access: 'ALLOW',
      verificationMethod: {
        factorMode: '2FA',
        type: 'ASSURANCE',
        reauthenticateIn: 'PT12H',
        constraints: [{ possession: { required: true, deviceBound: 'REQUIRED' } }],
      },
      keepMeSignedIn: { postAuth: 'NOT_ALLOWED' },
    },
  },
  PROFILE_ENROLLMENT: {
    profileEnrollment: {
      access: 'ALLOW',
      profileAttributes: [
        { name: 'firstName', label: 'First name', required: true },
        { name: 'email', label: 'Primary email', required: true },
      ],
      unknownUserAction: 'REGISTER',
      activationRequirements: { emailVerification: true },
      progressiveProfilingAction: 'ENABLED',
      allowedIdentifiers: ['login'],
    },
  },
};

/** Okta keeps `system` itself: a replacement saying `system: false` leaves the default policy default (recorded). */
function withoutSystem(body: Json): Json {
  const { system: _system, ...kept } = body;
  return kept;
}

/** Default policies and rules cannot be deleted (their `self` link allows only GET and PUT). */
function refuseSystemDelete(current: Json) {
  return current.system === true ? accessDenied() : undefined;
}

/**
 * `/api/v1/policies` (listed per `?type=`, which Okta requires) and their rules. Policies and
 * rules are deleted whatever their status: recorded Okta traffic deletes ACTIVE ones with 204;
 * default (`system`) ones never. A new app sign-in or user profile policy comes with its
 * catch-all rule. Priorities move as Okta moves them (policy-priorities.ts).
 */
export function policyRoutes(org: OrgContext): Route[] {
  const { state } = org;
  const policyType = (policyId: string) => String(state.policies.get(policyId)?.data.type);
  const policiesOfType = (type: string): PriorityGroup => ({
    members: [...state.policies.entries()].filter(([, policy]) => policy.data.type === type),
    set: (key, entry) => state.policies.set(key, entry),
    now: oktaTimestamp(org.now()),
  });
  const rulesOf = (policyId: string): PriorityGroup => ({
    members: [...state.policyRules.of(policyId).entries()],
    set: (key, entry) => state.policyRules.of(policyId).set(key, entry),
    now: oktaTimestamp(org.now()),
  });
  const addCatchAllRule = (policyId: string, type: string, now: string) => {
    const actions = CATCH_ALL_ACTIONS[type];
    if (!actions) return;
    const id = oktaId(ID_PREFIX.policyRule);
    const rule: Entry = {
      data: {
        id,
        status: 'ACTIVE',
        name: 'Catch-all Rule',
        priority: CATCH_ALL_PRIORITY,
        created: now,
        lastUpdated: now,
        system: true,
        actions,
        type: ruleTypeFor(type),
      },
    };
    state.policyRules.of(policyId).set(id, rule);
  };
  const policies = collectionRoutes(
    {
      type: 'policy',
      kindName: 'Policy',
      path: '/api/v1/policies',
      idParam: 'policyId',
      idPrefix: ID_PREFIX.policy,
      scopeFamily: 'okta.policies',
      limits: PAGE_LIMITS.policies,
      listParams: ['type', 'status', 'q', 'expand'],
      collection: ({ state }) => state.policies,
      listScope: (url) => {
        const type = url.searchParams.get('type');
        if (!type) throw validationFailed('type', 'type: The field cannot be left blank');
        const status = url.searchParams.get('status');
        return (p) => p.type === type && (!status || p.status === status);
      },
      stored: withoutSystem,
      defaults: (body, { org: o, id, url }) => {
        requireText(body, 'name');
        requireText(body, 'type');
        addCatchAllRule(id, String(body.type), oktaTimestamp(o.now()));
        return {
          status: queryFlag(url, 'activate', true) ? 'ACTIVE' : 'INACTIVE',
          system: false,
          priority:
            body.priority ??
            nextPriority(
              [...o.state.policies.valuesInOrder()]
                .filter((p) => p.data.type === body.type)
                .map((p) => p.data.priority),
            ),
        };
      },
      createStatus: 200,
      replaceKeeps: ['system', 'type'],
      guardDelete: refuseSystemDelete,
      arrange: (_o, id) => {
        const type = policyType(id);
        arrangePriorities(policiesOfType(type), policyOrder(type), id);
      },
      cascadeDelete: (_o, id, _params, deleted) => {
        state.policyRules.drop(id);
        const type = String(deleted.type);
        arrangePriorities(policiesOfType(type), policyOrder(type));
      },
      deleteStatus: 204,
      lifecycle: 'no-content',
      audit: {
        target: 'PolicyEntity',
        events: {
          create: 'policy.lifecycle.create',
          update: 'policy.lifecycle.update',
          delete: 'policy.lifecycle.delete',
          activate: 'policy.lifecycle.activate',
          deactivate: 'policy.lifecycle.deactivate',
        },
      },
    },
    org,
  );
  const rules = collectionRoutes(
    {
      type: 'policy_rule',
      kindName: 'PolicyRule',
      path: '/api/v1/policies/{policyId}/rules',
      idParam: 'ruleId',
      idPrefix: ID_PREFIX.policyRule,
      scopeFamily: 'okta.policies',
      limits: PAGE_LIMITS.policyRules,
      collection: ({ state }, { policyId }) => {
        if (!state.policies.has(policyId)) throw notFound(policyId, 'Policy');
        return state.policyRules.of(policyId);
      },
      parents: ({ policyId }) => [policyId],
      stored: withoutSystem,
      defaults: (body, { org: o, params, url }) => {
        requireText(body, 'name');
        const policyType = String(o.state.policies.get(params.policyId)?.data.type);
        return {
          type: ruleTypeFor(policyType),
          status: queryFlag(url, 'activate', true) ? 'ACTIVE' : 'INACTIVE',
          system: false,
          priority:
            body.priority ??
            nextPriority(
              [...o.state.policyRules.of(params.policyId).valuesInOrder()].map((r) => r.data.priority),
            ),
        };
      },
      createStatus: 200,
      replaceKeeps: ['system', 'type'],
      guardDelete: refuseSystemDelete,
      arrange: (_o, id, { policyId }) =>
        arrangePriorities(rulesOf(policyId), ruleOrder(policyType(policyId)), id),
      cascadeDelete: (_o, _id, { policyId }) =>
        arrangePriorities(rulesOf(policyId), ruleOrder(policyType(policyId))),
      deleteStatus: 204,
      lifecycle: 'no-content',
      audit: {
        target: 'PolicyRule',
        events: {
          create: 'policy.rule.add',
          update: 'policy.rule.update',
          delete: 'policy.rule.delete',
          activate: 'policy.rule.activate',
          deactivate: 'policy.rule.deactivate',
        },
      },
    },
    org,
  );
  return [...policies, ...rules];
}
