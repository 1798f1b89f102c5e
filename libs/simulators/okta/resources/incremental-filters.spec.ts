import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { startSimulator } from '@libs/simulators/okta/index.js';
import type { RunningSimulator } from '@libs/simulators/okta/simulator-options.js';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';

type Obj = Record<string, unknown> & { id: string };

/** One second ago, as an ISO instant: every write from now on has a later `lastUpdated`. */
const aSecondAgo = () => new Date(Date.now() - 1000).toISOString();
const gt = (field: string, since: string) => encodeURIComponent(`${field} gt "${since}"`);

describe('filters for incremental reads: lastUpdated, lastMembershipUpdated', () => {
  let sut: RunningSimulator;
  let client: SimulatorClient;

  beforeAll(async () => {
    sut = await startSimulator({ users: 300, groups: 12, seed: 21 });
    client = new SimulatorClient(sut);
  });

  afterAll(async () => {
    await client.close();
    await sut.close();
  });

  const ids = (items: Array<Record<string, unknown>>) => items.map((item) => item.id).sort();

  it('lists exactly the users written since an instant, DEPROVISIONED ones included', async () => {
    const since = aSecondAgo();
    expect((await client.walk(`/api/v1/users?filter=${gt('lastUpdated', since)}`)).items).toEqual([]);
    const [first, second] = sut.snapshot().user.filter((u) => u.data.status === 'ACTIVE');
    await client.call('POST', `/api/v1/users/${first.id}`, {
      json: { profile: { title: 'Chief Backup Officer' } },
    });
    await client.call('DELETE', `/api/v1/users/${second.id}`);

    const changed = await client.walk(`/api/v1/users?limit=200&filter=${gt('lastUpdated', since)}`);
    expect(ids(changed.items)).toEqual([first.id, second.id].sort());
    expect(changed.items.find((u) => u.id === second.id)).toMatchObject({ status: 'DEPROVISIONED' });
    // search takes the same expression (from an eventually consistent index in real Okta).
    const searched = await client.walk(`/api/v1/users?search=${gt('lastUpdated', since)}`);
    expect(ids(searched.items)).toEqual(ids(changed.items));
  });

  it("refuses a users filter on a property or operator listUsers' filter does not support (400 E0000031)", async () => {
    for (const expression of ['profile.title eq "Engineer"', 'status gt "A"', 'lastUpdated pr']) {
      const response = await client.call('GET', `/api/v1/users?filter=${encodeURIComponent(expression)}`);
      expect([expression, response.status, (response.body as Obj).errorCode]).toEqual([
        expression,
        400,
        'E0000031',
      ]);
    }
    const search = await client.call('GET', `/api/v1/users?search=${encodeURIComponent('profile.title pr')}`);
    expect(search.status).toBe(200);
  });

  it('moves a group lastMembershipUpdated (not lastUpdated) on member changes, and lastUpdated on profile changes', async () => {
    const snapshot = sut.snapshot();
    const [renamed, joined, left] = snapshot.group.filter((g) => g.data.type === 'OKTA_GROUP');
    const user = snapshot.user.find(
      (u) =>
        u.data.status === 'ACTIVE' && !snapshot.group_membership.some((m) => m.id === `${joined.id}:${u.id}`),
    )!;
    const member = snapshot.group_membership.find((m) => m.id.startsWith(`${left.id}:`))!;
    const since = aSecondAgo();

    await client.call('PUT', `/api/v1/groups/${renamed.id}`, {
      json: { profile: { name: 'Renamed group' } },
    });
    await client.call('PUT', `/api/v1/groups/${joined.id}/users/${user.id}`);
    await client.call('DELETE', `/api/v1/groups/${left.id}/users/${String(member.id).split(':')[1]}`);

    const byUpdate = await client.walk(`/api/v1/groups?filter=${gt('lastUpdated', since)}`);
    expect(ids(byUpdate.items)).toEqual([renamed.id]);
    const byMembership = await client.walk(`/api/v1/groups?filter=${gt('lastMembershipUpdated', since)}`);
    expect(ids(byMembership.items)).toEqual([joined.id, left.id].sort());
    const groupFilter = await client.call(
      'GET',
      `/api/v1/groups?filter=${encodeURIComponent('profile.name eq "IT"')}`,
    );
    expect(groupFilter.status).toBe(400);
  });

  it("creating or deleting a user moves the lastMembershipUpdated of the user's groups", async () => {
    const since = aSecondAgo();
    const created = await client.call('POST', '/api/v1/users?activate=false', {
      json: {
        profile: {
          firstName: 'Ada',
          lastName: 'Byron',
          email: 'ada.byron@example.com',
          login: 'ada.byron@example.com',
        },
      },
    });
    const everyone = sut.snapshot().group.find((g) => g.data.type === 'BUILT_IN')!;
    const afterCreate = await client.walk(`/api/v1/groups?filter=${gt('lastMembershipUpdated', since)}`);
    expect(ids(afterCreate.items)).toContain(everyone.id);
    expect(afterCreate.items.length).toBeLessThan(sut.snapshot().group.length);

    const victim = sut.snapshot().user.find((u) => u.data.status === 'DEPROVISIONED')!;
    const groupsOfVictim = sut
      .snapshot()
      .group_membership.filter((m) => m.id.endsWith(`:${victim.id}`))
      .map((m) => m.id.split(':')[0]);
    expect(groupsOfVictim.length).toBeGreaterThan(1);
    const beforeDelete = aSecondAgo();
    await client.call('DELETE', `/api/v1/users/${victim.id}`);
    const afterDelete = await client.walk(
      `/api/v1/groups?filter=${gt('lastMembershipUpdated', beforeDelete)}`,
    );
    expect(ids(afterDelete.items)).toEqual(expect.arrayContaining(groupsOfVictim));
    expect((created.body as Obj).id).toBeDefined();
  });
});
