import { describe, expect, it } from '@jest/globals';

import { normalizeConditionalAccessPolicy } from './conditional-access-normalization.js';
import { GraphError } from './graph-error.js';
import type { GraphObject } from './tenant-state.js';

const MFA: GraphObject = {
  id: '00000000-0000-0000-0000-000000000002',
  displayName: 'Multifactor authentication',
  policyType: 'builtIn',
  requirementsSatisfied: 'mfa',
  allowedCombinations: ['fido2', 'password,microsoftAuthenticatorPush'],
};
const strengths = new Map([[MFA.id, MFA]]);

describe('normalizeConditionalAccessPolicy', () => {
  it('answers the whole condition set: absent lists as [], absent nullable members as null', () => {
    const sut = normalizeConditionalAccessPolicy(
      {
        id: 'p1',
        displayName: 'Block legacy authentication',
        state: 'enabled',
        conditions: {
          clientAppTypes: ['exchangeActiveSync', 'other'],
          applications: { includeApplications: ['All'] },
          users: { includeUsers: ['All'] },
        },
        grantControls: { builtInControls: ['block'] },
      },
      strengths,
    );
    expect(sut.conditions).toEqual({
      clientAppTypes: ['exchangeActiveSync', 'other'],
      servicePrincipalRiskLevels: [],
      signInRiskLevels: [],
      userRiskLevels: [],
      applications: {
        includeApplications: ['All'],
        excludeApplications: [],
        includeAuthenticationContextClassReferences: [],
        includeUserActions: [],
        applicationFilter: null,
      },
      users: {
        includeUsers: ['All'],
        excludeUsers: [],
        includeGroups: [],
        excludeGroups: [],
        includeRoles: [],
        excludeRoles: [],
        includeGuestsOrExternalUsers: null,
        excludeGuestsOrExternalUsers: null,
      },
      authenticationFlows: null,
      clientApplications: null,
      devices: null,
      insiderRiskLevels: null,
      locations: null,
      platforms: null,
    });
    expect(sut.grantControls).toEqual({
      operator: 'OR',
      builtInControls: ['block'],
      customAuthenticationFactors: [],
      termsOfUse: [],
      authenticationStrength: null,
    });
    expect(sut).toMatchObject({ sessionControls: null, description: null, templateId: null });
  });

  it('expands an authentication strength given by id, keeps a given operator and the lists as written', () => {
    const sut = normalizeConditionalAccessPolicy(
      {
        id: 'p2',
        displayName: 'MFA for admins',
        state: 'enabled',
        conditions: {
          clientAppTypes: ['all'],
          users: { includeRoles: ['b', 'a'] },
          locations: { includeLocations: ['All'] },
        },
        grantControls: { operator: 'AND', authenticationStrength: { id: MFA.id } },
      },
      strengths,
    );
    expect((sut.grantControls as Record<string, unknown>).authenticationStrength).toEqual(MFA);
    expect((sut.grantControls as Record<string, unknown>).operator).toBe('AND');
    const conditions = sut.conditions as Record<string, Record<string, unknown>>;
    expect(conditions.users.includeRoles).toEqual(['b', 'a']);
    expect(conditions.locations).toEqual({ includeLocations: ['All'], excludeLocations: [] });
  });

  it('refuses an authentication strength the tenant does not have', () => {
    const write = () =>
      normalizeConditionalAccessPolicy(
        {
          id: 'p3',
          displayName: 'x',
          state: 'enabled',
          conditions: {},
          grantControls: { authenticationStrength: { id: 'missing' } },
        },
        strengths,
      );
    expect(write).toThrow(GraphError);
    expect(write).toThrow(/missing/);
  });
});
