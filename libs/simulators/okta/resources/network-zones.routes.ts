import { accessDenied, validationFailed } from '@libs/simulators/okta/http/okta-error.js';
import type { Route } from '@libs/simulators/kit/http/router.js';
import type { OrgContext } from '@libs/simulators/okta/org-context.js';
import { PAGE_LIMITS } from '@libs/simulators/okta/query/page-limits.js';
import { ID_PREFIX } from '@libs/simulators/okta/store/okta-ids.js';
import { collectionRoutes } from './collection-routes.js';
import { requireText } from './validation.js';

const ZONE_TYPES = ['IP', 'DYNAMIC', 'DYNAMIC_V2'];

/**
 * `/api/v1/zones`. Activate/deactivate answer the zone (OpenAPI). "For Okta Identity Engine
 * orgs, you can't delete a Network Zone with an ACTIVE status" (deleteNetworkZone): the
 * refusal is a 400 E0000001 in the OpenAPI's "delete an active X" style. The system zones
 * (LegacyIpZone, BlockedIpZone, DefaultEnhancedDynamicZone: "default system Network Zones that
 * you can modify and use", Network Zones API) are Okta's and cannot be deleted: 403 E0000006, as
 * for the other objects Okta owns.
 */
export function networkZoneRoutes(org: OrgContext): Route[] {
  return collectionRoutes(
    {
      type: 'network_zone',
      kindName: 'NetworkZone',
      path: '/api/v1/zones',
      idParam: 'zoneId',
      idPrefix: ID_PREFIX.networkZone,
      scopeFamily: 'okta.networkZones',
      limits: PAGE_LIMITS.zones,
      listParams: ['filter'],
      collection: ({ state }) => state.networkZones,
      defaults: (body) => {
        requireText(body, 'name');
        if (!ZONE_TYPES.includes(String(body.type)))
          throw validationFailed('type', `type: Must be one of ${ZONE_TYPES.join(', ')}`);
        return { status: 'ACTIVE', usage: body.usage ?? 'POLICY', system: false };
      },
      createStatus: 200,
      replaceKeeps: ['system'],
      guardDelete: (zone) =>
        zone.system === true
          ? accessDenied()
          : zone.status === 'ACTIVE'
            ? validationFailed(
                'NetworkZone',
                "You can't delete a Network Zone with an ACTIVE status. Deactivate the zone before deleting it.",
              )
            : undefined,
      deleteStatus: 204,
      lifecycle: 'object',
    },
    org,
  );
}
