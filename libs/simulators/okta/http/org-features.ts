import type { Route } from '@libs/simulators/kit/http/router.js';
import { featureNotEnabled } from './okta-error.js';

/**
 * Features of an Okta org's edition that an org may lack (SimulatorOptions.lacksFeatures):
 * `API_ACCESS_MANAGEMENT`, custom authorization servers (management.yaml marks the
 * Authorization Servers API `isGenerallyAvailable: false`).
 */
export type OktaOrgFeature = 'API_ACCESS_MANAGEMENT';

/** The API paths each feature owns. */
const FEATURE_PATHS: Record<OktaOrgFeature, RegExp> = {
  API_ACCESS_MANAGEMENT: /^\/api\/v1\/authorizationServers(\/|$)/,
};

/**
 * `routes` of an org without `lacking`: a route of a feature it lacks answers every caller, once
 * authenticated, 401 E0000015 (featureNotEnabled), as the recorded org without API Access
 * Management answered both reads and writes; the other routes are as given.
 */
export function withoutFeatures(routes: readonly Route[], lacking: readonly OktaOrgFeature[]): Route[] {
  const gated = lacking.map((feature) => FEATURE_PATHS[feature]);
  return routes.map((route) =>
    gated.some((paths) => paths.test(route.template))
      ? {
          ...route,
          handle: () => {
            throw featureNotEnabled();
          },
        }
      : route,
  );
}
