import { describe, expect, it } from '@jest/globals';

import { conditionalAccessBody, conditionalAccessShape } from './conditional-access-shape.js';

const STRENGTH = {
  id: '00000000-0000-0000-0000-000000000002',
  displayName: 'Multifactor authentication',
  allowedCombinations: ['fido2'],
};

/** As written: a reference to the strength, condition sets left out. */
const written = {
  id: 'p',
  displayName: 'MFA for admins',
  state: 'enabled',
  conditions: {
    clientAppTypes: ['all'],
    users: { includeRoles: ['b', 'a'] },
    applications: { includeApplications: ['All'] },
  },
  grantControls: { authenticationStrength: { id: STRENGTH.id } },
};

/** As Graph answers it: the strength expanded, every set there, lists in another order, an operator. */
const stored = {
  id: 'p',
  createdDateTime: '2026-01-01T00:00:00Z',
  modifiedDateTime: null,
  templateId: null,
  displayName: 'MFA for admins',
  description: null,
  state: 'enabled',
  conditions: {
    clientAppTypes: ['all'],
    userRiskLevels: [],
    signInRiskLevels: [],
    locations: null,
    users: { includeRoles: ['a', 'b'], excludeRoles: [], includeGuestsOrExternalUsers: null },
    applications: { includeApplications: ['All'], excludeApplications: [], applicationFilter: null },
  },
  grantControls: {
    operator: 'OR',
    builtInControls: [],
    termsOfUse: [],
    'authenticationStrength@odata.context': 'https://graph.microsoft.com/...',
    authenticationStrength: STRENGTH,
  },
  sessionControls: null,
};

describe('conditionalAccessShape', () => {
  it('gives what was written and what Graph stored of it the same shape', () => {
    expect(conditionalAccessShape(stored)).toEqual(conditionalAccessShape(written));
  });

  it('tells apart what differs: a state, a user, an operator between two controls', () => {
    expect(conditionalAccessShape({ ...stored, state: 'disabled' })).not.toEqual(
      conditionalAccessShape(written),
    );
    const otherRole = { ...stored, conditions: { ...stored.conditions, users: { includeRoles: ['a'] } } };
    expect(conditionalAccessShape(otherRole)).not.toEqual(conditionalAccessShape(written));
    const two = (operator: string) => ({
      ...stored,
      grantControls: { operator, builtInControls: ['mfa', 'compliantDevice'] },
    });
    expect(conditionalAccessShape(two('AND'))).not.toEqual(conditionalAccessShape(two('OR')));
  });
});

describe('conditionalAccessBody', () => {
  it('writes the strength as a reference, no server-set member or annotation, and nulls to clear', () => {
    const body = conditionalAccessBody(stored);
    expect(body).not.toHaveProperty('id');
    expect(body).not.toHaveProperty('createdDateTime');
    expect(body).not.toHaveProperty('templateId');
    expect(body.grantControls).toEqual({
      operator: 'OR',
      builtInControls: [],
      termsOfUse: [],
      authenticationStrength: { id: STRENGTH.id },
    });
    expect(conditionalAccessBody(written)).toMatchObject({ sessionControls: null, description: null });
  });
});
