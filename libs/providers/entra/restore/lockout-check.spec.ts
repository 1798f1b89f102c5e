import { describe, expect, it } from '@jest/globals';
import type { GraphObject } from '@libs/providers/entra/graph-api-client.js';

import {
  blocksEveryAdmin,
  GLOBAL_ADMINISTRATOR_ROLE,
  groupsNamed,
  type SignInAdmin,
} from './lockout-check.js';

const ALICE: SignInAdmin = { id: 'alice', groups: new Set(['admins']) };
const BOB: SignInAdmin = { id: 'bob', groups: new Set() };

/** A policy blocking all users from all applications on every client, with `changes` on top. */
function policy(changes: { users?: object; conditions?: object; grantControls?: object } = {}): GraphObject {
  return {
    state: 'enabled',
    conditions: {
      clientAppTypes: ['all'],
      applications: { includeApplications: ['All'], excludeApplications: [] },
      users: { includeUsers: ['All'], excludeUsers: [], ...changes.users },
      userRiskLevels: [],
      locations: null,
      ...changes.conditions,
    },
    grantControls: { operator: 'OR', builtInControls: ['block'], ...changes.grantControls },
  };
}

describe('blocksEveryAdmin', () => {
  it('finds a block of all users from all applications on every sign-in', () => {
    expect(blocksEveryAdmin(policy(), [ALICE, BOB])).toBe(true);
    expect(
      blocksEveryAdmin(policy({ users: { includeUsers: [], includeRoles: [GLOBAL_ADMINISTRATOR_ROLE] } }), [
        ALICE,
        BOB,
      ]),
    ).toBe(true);
    expect(blocksEveryAdmin(policy({ users: { includeUsers: ['alice', 'bob'] } }), [ALICE, BOB])).toBe(true);
  });

  it('spares the admins when one of them is excluded, by user, role or group', () => {
    expect(blocksEveryAdmin(policy({ users: { excludeUsers: ['bob'] } }), [ALICE, BOB])).toBe(false);
    expect(
      blocksEveryAdmin(policy({ users: { excludeRoles: [GLOBAL_ADMINISTRATOR_ROLE] } }), [ALICE, BOB]),
    ).toBe(false);
    expect(blocksEveryAdmin(policy({ users: { excludeGroups: ['admins'] } }), [ALICE, BOB])).toBe(false);
  });

  it('spares them when the policy does not include every admin', () => {
    expect(blocksEveryAdmin(policy({ users: { includeUsers: ['alice'] } }), [ALICE, BOB])).toBe(false);
    expect(
      blocksEveryAdmin(policy({ users: { includeUsers: [], includeGroups: ['admins'] } }), [ALICE, BOB]),
    ).toBe(false);
    expect(
      blocksEveryAdmin(policy({ users: { includeUsers: [], includeGroups: ['admins'] } }), [ALICE]),
    ).toBe(true);
  });

  it('spares them when the block is narrowed to some sign-ins or some applications, or does not block', () => {
    for (const conditions of [
      { clientAppTypes: ['exchangeActiveSync', 'other'] },
      { userRiskLevels: ['high'] },
      { signInRiskLevels: ['high', 'medium'] },
      { locations: { includeLocations: ['All'], excludeLocations: ['AllTrusted'] } },
      { platforms: { includePlatforms: ['android'], excludePlatforms: [] } },
      { authenticationFlows: { transferMethods: 'deviceCodeFlow' } },
      { applications: { includeApplications: ['00000003-0000-0ff1-ce00-000000000000'] } },
    ])
      expect(blocksEveryAdmin(policy({ conditions }), [ALICE, BOB])).toBe(false);
    expect(blocksEveryAdmin(policy({ grantControls: { builtInControls: ['mfa'] } }), [ALICE, BOB])).toBe(
      false,
    );
    const everywhere = { locations: { includeLocations: ['All'], excludeLocations: [] } };
    expect(blocksEveryAdmin(policy({ conditions: everywhere }), [ALICE, BOB])).toBe(true);
  });

  it('locks nobody out of a tenant with no admin who can sign in', () => {
    expect(blocksEveryAdmin(policy(), [])).toBe(false);
  });
});

describe('groupsNamed', () => {
  it("lists the groups a policy's user condition includes or excludes, once each", () => {
    expect(groupsNamed(policy({ users: { includeGroups: ['a', 'b'], excludeGroups: ['b', 'c'] } }))).toEqual([
      'a',
      'b',
      'c',
    ]);
  });
});
