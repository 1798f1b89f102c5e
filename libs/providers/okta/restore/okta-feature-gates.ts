import type { OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';

/** Types an Okta org holds only with a feature of its edition, and the list that tells whether it has it. */
export interface OktaFeatureGate {
  /** the feature, as Okta names it */
  feature: string;
  /** a list of the feature's objects: Okta answers E0000015 there when the org lacks it */
  probe: string;
  types: readonly OktaResourceType[];
  /** why a restore into an org without the feature cannot write the types (RestoreSupport.unavailable) */
  why: string;
}

/**
 * The feature gates a restore checks in the org it writes to. Custom authorization servers are
 * API Access Management's, which not every org has (management.yaml marks the Authorization
 * Servers API `x-okta-lifecycle: { lifecycle: GA, isGenerallyAvailable: false }`); an org without
 * it answers that API with 401 E0000015, as recorded from classic-00 (../shared/fixtures/okta/vcr, `POST /api/v1/authorizationServers`,
 * `GET /api/v1/authorizationServers/default`).
 */
export const OKTA_FEATURE_GATES: readonly OktaFeatureGate[] = [
  {
    feature: 'API Access Management',
    probe: '/api/v1/authorizationServers',
    types: [
      'authorization_server',
      'authorization_server_scope',
      'authorization_server_claim',
      'authorization_server_policy',
      'authorization_server_policy_rule',
    ],
    why: 'the org lacks API Access Management (Okta answers its Authorization Servers API with E0000015 "You do not have permission to access the feature you are requesting"): enable the feature in the org, then restore these again',
  },
];
