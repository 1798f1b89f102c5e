import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { startEntraSimulator, type RunningEntraSimulator } from './simulator.js';
import { graphCall } from './testing/graph-client.js';

/** Enterprise Mobility + Security E3: Entra ID P1 and Intune, no P2. */
const EMS_E3 = {
  id: 'efccb6f7-5641-4e0e-bd10-b4976e1bf68e',
  skuPartNumber: 'EMS',
  servicePlans: [{ servicePlanId: '41781fb2-bc02-4b7c-bd55-b576c07bb09d', servicePlanName: 'AAD_PREMIUM' }],
};
const CA = ['Policy.ReadWrite.ConditionalAccess', 'Policy.Read.All'];
const POLICIES = '/identity/conditionalAccess/policies';
const policy = (conditions: Record<string, unknown>) => ({
  displayName: 'Block risky sign-ins',
  state: 'enabled',
  conditions: {
    clientAppTypes: ['all'],
    applications: { includeApplications: ['All'] },
    users: { includeUsers: ['All'] },
    ...conditions,
  },
  grantControls: { operator: 'OR', builtInControls: ['block'] },
});

/** A tenant's subscriptions (licences.ts): served, and the conditions they gate refused without them. */
describe('Entra simulator: licences', () => {
  let p1: RunningEntraSimulator;
  let generated: RunningEntraSimulator;

  beforeAll(async () => {
    p1 = await startEntraSimulator({ users: 3, groups: 1, seed: 3, subscribedSkus: [EMS_E3] });
    generated = await startEntraSimulator({ users: 3, groups: 1, seed: 3 });
  });
  afterAll(async () => {
    await p1?.close();
    await generated?.close();
  });

  it('lists the subscribed SKUs with their service plans, to Organization.Read.All', async () => {
    const answer = await graphCall(p1, ['Organization.Read.All'], 'GET', '/subscribedSkus');
    expect(answer.status).toBe(200);
    expect(answer.body.value).toEqual([
      expect.objectContaining({
        id: `${p1.tenantId}_${EMS_E3.id}`,
        skuId: EMS_E3.id,
        skuPartNumber: 'EMS',
        capabilityStatus: 'Enabled',
        servicePlans: [
          expect.objectContaining({ servicePlanName: 'AAD_PREMIUM', provisioningStatus: 'Success' }),
        ],
      }),
    ]);
    expect((await graphCall(p1, ['User.Read.All'], 'GET', '/subscribedSkus')).status).toBe(403);
  });

  it('refuses risk conditions without Entra ID P2 and service principal conditions without Workload ID, as Graph answers', async () => {
    const risky = await graphCall(p1, CA, 'POST', POLICIES, policy({ signInRiskLevels: ['high'] }));
    expect(risky).toMatchObject({
      status: 400,
      body: { error: { code: 'BadRequest', message: expect.stringMatching(/^1039: .*premium P2/) } },
    });
    const workload = await graphCall(
      p1,
      CA,
      'POST',
      POLICIES,
      policy({ clientApplications: { includeServicePrincipals: ['ServicePrincipalsInMyTenant'] } }),
    );
    expect(workload).toMatchObject({
      status: 400,
      body: { error: { message: expect.stringMatching(/^1150: /) } },
    });
    const plain = await graphCall(p1, CA, 'POST', POLICIES, policy({ signInRiskLevels: [] }));
    expect(plain.status).toBe(201);
    // an update that adds a risk condition is refused too, and leaves the policy as it was
    const path = `${POLICIES}/${String(plain.body.id)}`;
    const update = await graphCall(p1, CA, 'PATCH', path, { conditions: { userRiskLevels: ['high'] } });
    expect(update.status).toBe(400);
    expect((await graphCall(p1, CA, 'GET', path)).body).toMatchObject({ conditions: { userRiskLevels: [] } });
  });

  it('takes risk conditions in a generated tenant, which holds Entra ID P2', async () => {
    const risky = await graphCall(generated, CA, 'POST', POLICIES, policy({ userRiskLevels: ['high'] }));
    expect(risky.status).toBe(201);
  });
});
