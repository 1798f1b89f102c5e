import type { Route } from '@libs/simulators/kit/http/router.js';
import type { OrgContext } from '@libs/simulators/okta/org-context.js';
import { PAGE_LIMITS } from '@libs/simulators/okta/query/page-limits.js';
import { ID_PREFIX } from '@libs/simulators/okta/store/okta-ids.js';
import { collectionRoutes } from './collection-routes.js';
import { requireText } from './validation.js';

/** `/api/v1/trustedOrigins`; activate/deactivate answer the origin (OpenAPI). */
export function trustedOriginRoutes(org: OrgContext): Route[] {
  return collectionRoutes(
    {
      type: 'trusted_origin',
      kindName: 'TrustedOrigin',
      path: '/api/v1/trustedOrigins',
      idParam: 'trustedOriginId',
      idPrefix: ID_PREFIX.trustedOrigin,
      scopeFamily: 'okta.trustedOrigins',
      limits: PAGE_LIMITS.trustedOrigins,
      listParams: ['q', 'filter'],
      qFields: ['name', 'origin'],
      collection: ({ state }) => state.trustedOrigins,
      defaults: (body, { org: o }) => {
        requireText(body, 'name');
        requireText(body, 'origin');
        return {
          scopes: body.scopes ?? [],
          status: 'ACTIVE',
          createdBy: o.state.adminUserId,
          lastUpdatedBy: o.state.adminUserId,
        };
      },
      createStatus: 200,
      replaceKeeps: ['createdBy', 'lastUpdatedBy'],
      deleteStatus: 204,
      lifecycle: 'object',
    },
    org,
  );
}
