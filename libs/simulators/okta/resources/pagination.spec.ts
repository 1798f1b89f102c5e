import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { startSimulator } from '@libs/simulators/okta/index.js';
import type { RunningSimulator } from '@libs/simulators/okta/simulator-options.js';
import { parseLinks, SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';

describe('list endpoints over HTTPS', () => {
  let sut: RunningSimulator;
  let client: SimulatorClient;

  beforeAll(async () => {
    sut = await startSimulator({ users: 1000, groups: 12, apps: 3, seed: 3 });
    client = new SimulatorClient(sut);
  });

  afterAll(async () => {
    await client.close();
    await sut.close();
  });

  const ids = (items: Array<Record<string, unknown>>) => items.map((i) => i.id);

  it('walks every user except DEPROVISIONED ones exactly once at limit=200', async () => {
    const { items, pages } = await client.walk('/api/v1/users?limit=200');
    const expected = sut
      .snapshot()
      .user.filter((u) => u.data.status !== 'DEPROVISIONED')
      .map((u) => u.id);
    expect(ids(items)).toEqual(expected);
    expect(pages).toBe(Math.ceil(expected.length / 200));
  });

  it('includes DEPROVISIONED users when a filter is given (listUsers note)', async () => {
    const { items } = await client.walk(
      '/api/v1/users?filter=lastUpdated+gt+%222000-01-01T00%3A00%3A00.000Z%22',
    );
    expect(items).toHaveLength(1000);
    expect(new Set(ids(items)).size).toBe(1000);
  });

  it('formats Link headers as Okta does: self repeats the request, next carries after and limit', async () => {
    const response = await client.call('GET', '/api/v1/users?limit=200&sortOrder=0&search=status+pr');
    const items = response.body as Array<{ id: string }>;
    expect(response.headers.link).toEqual([
      `<${sut.baseUrl}/api/v1/users?limit=200&search=status+pr>; rel="self"`,
      `<${sut.baseUrl}/api/v1/users?after=${items[199].id}&limit=200&search=status+pr>; rel="next"`,
    ]);
  });

  it('clamps a limit above the documented maximum (users: 200)', async () => {
    const response = await client.call('GET', '/api/v1/users?limit=1000');
    expect(response.body).toHaveLength(200);
    expect(parseLinks(response.headers.link).next).toContain('limit=200');
  });

  it('pages group members and app users with their own default sizes', async () => {
    const everyone = sut
      .snapshot()
      .group.find((g) => (g.data.profile as { name: string }).name === 'Everyone');
    const members = await client.walk(`/api/v1/groups/${everyone?.id}/users?limit=300`);
    expect(members.items).toHaveLength(1000);
    expect(members.pages).toBe(4);

    const app = sut.snapshot().app[0];
    const assigned = sut.snapshot().app_user_assignment.filter((a) => a.id.startsWith(`${app.id}:`));
    const appUsers = await client.walk(`/api/v1/apps/${app.id}/users`);
    expect(appUsers.pages).toBe(Math.ceil(assigned.length / 50));
    expect(ids(appUsers.items)).toEqual(assigned.map((a) => a.data.id));
  });

  it('finds what changed since a time with lastUpdated gt, for incremental backups', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const [user] = sut.snapshot().user;
    const [group] = sut.snapshot().group.filter((g) => g.data.type === 'OKTA_GROUP');
    await client.call('POST', `/api/v1/users/${user.id}`, { json: { profile: { title: 'Chief Tester' } } });
    await client.call('PUT', `/api/v1/groups/${group.id}`, { json: { profile: { name: 'Renamed group' } } });
    const filter = encodeURIComponent(`lastUpdated gt "${since}"`);
    expect(ids((await client.call('GET', `/api/v1/users?filter=${filter}`)).body as never)).toEqual([
      user.id,
    ]);
    expect(ids((await client.call('GET', `/api/v1/groups?search=${filter}`)).body as never)).toEqual([
      group.id,
    ]);
  });

  it('keeps walking when an object of the current page is deleted between pages', async () => {
    const first = await client.call('GET', '/api/v1/groups?limit=5');
    const last = (first.body as Array<{ id: string }>)[4];
    expect((await client.call('DELETE', `/api/v1/groups/${last.id}`)).status).toBe(204);
    const rest = await client.walk(parseLinks(first.headers.link).next);
    expect(rest.items).toHaveLength(sut.snapshot().group.length - 4);
  });

  it('answers 400 E0000001 for an after cursor it never issued', async () => {
    const response = await client.call('GET', '/api/v1/groups?after=bogus');
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ errorCode: 'E0000001' });
  });

  it('answers 400 E0000031 for a filter outside the grammar', async () => {
    const response = await client.call('GET', '/api/v1/users?search=status+ne+%22ACTIVE%22');
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ errorCode: 'E0000031', errorSummary: 'Invalid search criteria.' });
  });

  it('lists policies per type, which Okta requires', async () => {
    const missing = await client.call('GET', '/api/v1/policies');
    expect(missing.status).toBe(400);
    const signOn = await client.call('GET', '/api/v1/policies?type=OKTA_SIGN_ON');
    expect((signOn.body as Array<{ type: string }>).map((p) => p.type)).toEqual([
      'OKTA_SIGN_ON',
      'OKTA_SIGN_ON',
    ]);
    expect(signOn.headers.link).toBe(`<${sut.baseUrl}/api/v1/policies?type=OKTA_SIGN_ON>; rel="self"`);
  });

  it("lists a user as updated in its groups' member lists, in UTF-8 whatever the script", async () => {
    const everyone = sut
      .snapshot()
      .group.find((g) => (g.data.profile as { name: string }).name === 'Everyone');
    const before = await client.walk(`/api/v1/groups/${everyone?.id}/users`);
    const user = before.items[0] as { id: string; profile: Record<string, unknown> };

    await client.call('POST', `/api/v1/users/${user.id}`, {
      json: { profile: { firstName: 'Zoë 🦉 Ünal' } },
    });
    const after = await client.walk(`/api/v1/groups/${everyone?.id}/users`);

    expect(after.items).toHaveLength(before.items.length);
    expect(after.items.find((each) => each.id === user.id)).toMatchObject({
      profile: { ...user.profile, firstName: 'Zoë 🦉 Ünal' },
    });
  });
});
