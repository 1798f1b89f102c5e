import { notFound, validationFailed } from '../http/okta-error.js';
import { queryFlag } from '../http/request-body.js';
import type { Route } from '../http/router.js';
import type { OrgContext } from '../org-context.js';
import { PAGE_LIMITS } from '../query/page-limits.js';
import { ID_PREFIX } from '../store/okta-ids.js';
import { collectionRoutes } from './collection-routes.js';
import { ruleTypeFor } from './policy-rule-type.js';
import { requireText } from './validation.js';

/** Next priority: after the last non-catch-all entry (Okta appends new ones before defaults). */
function nextPriority(priorities: Iterable<unknown>): number {
  let max = 0;
  for (const p of priorities) if (typeof p === 'number' && p < 99) max = Math.max(max, p);
  return max + 1;
}

/**
 * `/api/v1/policies` (listed per `?type=`, which Okta requires) and their rules. Policies and
 * rules are deleted whatever their status: recorded Okta traffic deletes ACTIVE ones with 204.
 */
export function policyRoutes(org: OrgContext): Route[] {
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
      defaults: (body, { org: o, url }) => {
        requireText(body, 'name');
        requireText(body, 'type');
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
      cascadeDelete: ({ state }, id) => state.policyRules.drop(id),
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
