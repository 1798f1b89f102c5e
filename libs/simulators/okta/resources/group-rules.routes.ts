import { validationFailed } from '@libs/simulators/okta/http/okta-error.js';
import type { Route } from '@libs/simulators/kit/http/router.js';
import type { OrgContext } from '@libs/simulators/okta/org-context.js';
import { PAGE_LIMITS } from '@libs/simulators/okta/query/page-limits.js';
import type { Json } from '@libs/simulators/okta/store/entry.js';
import { ID_PREFIX } from '@libs/simulators/okta/store/okta-ids.js';
import { collectionRoutes } from './collection-routes.js';
import { requireText } from './validation.js';

/** Okta only changes or deletes INACTIVE rules ("Only `INACTIVE` rules can be updated"). */
function refuseWhenActive(verb: string) {
  return (rule: Json) =>
    rule.status === 'ACTIVE'
      ? validationFailed('status', `status: Cannot ${verb} an ACTIVE group rule. Deactivate the rule first.`)
      : undefined;
}

/**
 * `/api/v1/groups/rules`. Rules are created INACTIVE, `search` is a keyword on the rule name,
 * DELETE answers 202 Accepted and activate/deactivate 204 (OpenAPI, recorded traffic).
 */
export function groupRuleRoutes(org: OrgContext): Route[] {
  return collectionRoutes(
    {
      type: 'group_rule',
      kindName: 'GroupRule',
      path: '/api/v1/groups/rules',
      idParam: 'groupRuleId',
      idPrefix: ID_PREFIX.groupRule,
      scopeFamily: 'okta.groups',
      limits: PAGE_LIMITS.groupRules,
      listParams: ['search', 'expand'],
      keywordSearch: ['name'],
      collection: ({ state }) => state.groupRules,
      defaults: (body, { org: o }) => {
        requireText(body, 'name');
        requireText(body, 'conditions.expression.value');
        const groupIds = (body.actions as { assignUserToGroups?: { groupIds?: unknown } } | undefined)
          ?.assignUserToGroups?.groupIds;
        if (
          !Array.isArray(groupIds) ||
          groupIds.length === 0 ||
          !groupIds.every((id) => o.state.groups.has(String(id)))
        )
          throw validationFailed('groupIds', 'groupIds: Group rule must assign users to existing groups');
        return { type: 'group_rule', status: 'INACTIVE', allGroupsValid: true };
      },
      createStatus: 200,
      guardReplace: refuseWhenActive('update'),
      guardDelete: refuseWhenActive('delete'),
      deleteStatus: 202,
      lifecycle: 'no-content',
    },
    org,
  );
}
