import { ID_PREFIX } from '@libs/simulators/okta/store/okta-ids.js';
import type { OrgState } from '@libs/simulators/okta/store/org-state.js';
import { generateApps } from './generate-apps.js';
import { generateAuthorizationServer } from './generate-authorization-server.js';
import { generateDirectory } from './generate-directory.js';
import { generateIntegrations } from './generate-integrations.js';
import { generateNetwork } from './generate-network.js';
import { generatePeople } from './generate-people.js';
import { generatePolicies } from './generate-policies.js';
import { generateRoleTargets } from './generate-role-targets.js';
import { GeneratorContext } from './generator-context.js';
import { namePools } from './name-pools.js';

/** Sizes of a generated org; the same sizes and seed always give the same org. */
export interface GeneratorSizes {
  users: number;
  groups: number;
  apps: number;
  seed: number;
}

export const DEFAULT_SIZES: GeneratorSizes = { users: 50, groups: 10, apps: 5, seed: 1 };

/**
 * Fills `state` with a realistic org: users in every status, the Everyone group and OKTA_GROUP
 * groups with members, group rules, apps with user and group assignments, network zones,
 * trusted origins, policies of the main types with rules referencing groups and zones, a
 * custom authorization server, and the org-level settings (user types and schemas, admin roles
 * and their targets, authenticators, identity providers, hooks, brands...: generate-directory.ts,
 * generate-integrations.ts, generate-role-targets.ts). Deterministic for a given seed
 * (timestamps included); `baseUrl` only appears in generated issuer URLs. 200,000 users take a few seconds.
 */
export function generateOrg(state: OrgState, sizes: GeneratorSizes, baseUrl: string): void {
  const ctx = new GeneratorContext(state, namePools(sizes.seed), sizes.seed, baseUrl);
  state.defaultUserTypeId = ctx.id(ID_PREFIX.userType);
  const people = generatePeople(ctx, sizes);
  const zones = generateNetwork(ctx);
  const appIds = generateApps(ctx, sizes.apps, people);
  generatePolicies(ctx, people, zones);
  generateAuthorizationServer(ctx, people);
  // Org-level settings last, so that earlier objects keep the values a seed always gave them.
  generateDirectory(ctx, people);
  generateIntegrations(ctx, appIds);
  generateRoleTargets(ctx, people, appIds);
}
