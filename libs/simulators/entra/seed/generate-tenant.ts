import { Prng } from '@libs/simulators/kit/seed/prng.js';

import type { TenantState } from '@libs/simulators/entra/tenant-state.js';
import { generateDependencies } from './generate-dependencies.js';
import { generateDirectory } from './generate-directory.js';
import { guid } from './guid.js';
import { userObject } from './users.js';

/** Sizes of a generated tenant part. */
export interface TenantSizes {
  users: number;
  groups: number;
  /** app registrations, each with its service principal and owners (default 2) */
  applications?: number;
  /** PRNG seed: the same seed makes the same tenant */
  seed: number;
}

export const DEFAULT_TENANT_SIZES: TenantSizes = { users: 20, groups: 5, seed: 1 };

const FIRST = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Ken', 'Radia', 'Linus', 'Frances', 'Donald'];
const LAST = [
  'Lovelace',
  'Hopper',
  'Turing',
  'Dijkstra',
  'Liskov',
  'Thompson',
  'Perlman',
  'Torvalds',
  'Allen',
  'Knuth',
];
const DEPARTMENTS = ['Engineering', 'Finance', 'Sales', 'Support', 'Legal'];

/**
 * Users in a generated group: a fifth of the tenant, but no more than gives each user three groups
 * on average, as the Okta generator does (everyone, a department, up to two more). Without the
 * bound, 100,000 users in 1,000 groups made 20 million memberships, 200 a user, which no bench org
 * of either provider holds.
 */
function membersPerGroup(users: number, groups: number): number {
  return Math.ceil(Math.min(users / 5, (3 * users) / Math.max(groups, 1)));
}

/**
 * Adds generated objects to `state`, deterministic for a seed: `users` members, `groups`
 * security groups (`securityEnabled`, `mailEnabled: false`) each with a random fifth of the users
 * as members (bounded by membersPerGroup) and the first group holding the second (nested groups
 * are directory members too),
 * and two named locations, an `ipNamedLocation` and a `countryNamedLocation` (the two kinds of
 * the v1.0 CSDL), on the tenant's first domain; then the directory's other types
 * (generate-directory.ts).
 */
export function generateTenant(state: TenantState, sizes: TenantSizes): void {
  const prng = Prng.seeded(sizes.seed);
  const domain = state.domainNames()[0] ?? 'contoso.onmicrosoft.com';
  const created = Date.UTC(2024, 0, 1);
  const users: string[] = [];
  for (let i = 0; i < sizes.users; i++) {
    const given = prng.pick(FIRST);
    const surname = prng.pick(LAST);
    const upn = `${given}.${surname}.${i}@${domain}`.toLowerCase();
    const id = guid(prng);
    users.push(id);
    state.put(
      'users',
      userObject({
        id,
        displayName: `${given} ${surname}`,
        userPrincipalName: upn,
        mail: upn,
        givenName: given,
        surname,
        department: prng.pick(DEPARTMENTS),
        accountEnabled: prng.chance(0.9),
        userType: 'Member',
        createdDateTime: new Date(created + i * 3_600_000).toISOString(),
        onPremisesSyncEnabled: false,
        usageLocation: 'US',
      }),
    );
  }
  const groups: string[] = [];
  for (let i = 0; i < sizes.groups; i++) {
    const id = guid(prng);
    groups.push(id);
    const name = `${prng.pick(DEPARTMENTS)} team ${i}`;
    state.put('groups', {
      id,
      displayName: name,
      description: `Generated group ${i}`,
      mailNickname: `team${i}`,
      mail: null,
      mailEnabled: false,
      securityEnabled: true,
      groupTypes: [],
      membershipRule: null,
      membershipRuleProcessingState: null,
      visibility: null,
      isAssignableToRole: null,
      createdDateTime: new Date(created + i * 86_400_000).toISOString(),
      deletedDateTime: null,
    });
    for (const member of prng.sample(users, membersPerGroup(users.length, sizes.groups)))
      state.addMember(id, member);
  }
  if (groups.length >= 2) state.addMember(groups[0], groups[1]);
  state.put('namedLocations', {
    '@odata.type': '#microsoft.graph.ipNamedLocation',
    id: guid(prng),
    displayName: 'Head office',
    createdDateTime: new Date(created).toISOString(),
    modifiedDateTime: new Date(created).toISOString(),
    isTrusted: true,
    ipRanges: [{ '@odata.type': '#microsoft.graph.iPv4CidrRange', cidrAddress: '203.0.113.0/24' }],
  });
  state.put('namedLocations', {
    '@odata.type': '#microsoft.graph.countryNamedLocation',
    id: guid(prng),
    displayName: 'Blocked countries',
    createdDateTime: new Date(created).toISOString(),
    modifiedDateTime: new Date(created).toISOString(),
    countriesAndRegions: ['KP', 'IR'],
    includeUnknownCountriesAndRegions: true,
    countryLookupMethod: 'clientIpAddress',
  });
  generateDirectory(state, prng, users, groups, sizes.applications);
  generateDependencies(state, prng, users);
}
