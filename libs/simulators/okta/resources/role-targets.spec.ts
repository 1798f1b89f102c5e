import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { startSimulator } from '@libs/simulators/okta/index.js';
import type { RunningSimulator } from '@libs/simulators/okta/simulator-options.js';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';

interface Created {
  id: string;
}

/** Role targets of users' and groups' standard role assignments, as recorded from real orgs. */
describe('admin role targets', () => {
  let sut: RunningSimulator;
  let client: SimulatorClient;
  let user: string;
  let groups: string[];
  let app: { id: string; name: string; label: string };

  const call = async (method: string, path: string, json?: unknown) => {
    const response = await client.call(method, path, json === undefined ? {} : { json });
    return { status: response.status, body: response.body as Record<string, unknown> & unknown[] };
  };
  const grant = async (owner: string, type: string) =>
    ((await call('POST', `${owner}/roles`, { type })).body as unknown as Created).id;
  const ids = (body: unknown) => (body as Array<{ id?: string; name?: string }>).map((t) => t.id ?? t.name);

  beforeAll(async () => {
    sut = await startSimulator({ users: 30, groups: 6, apps: 3, seed: 17 });
    client = new SimulatorClient(sut);
    const snapshot = sut.snapshot();
    const admins = new Set(snapshot.admin_role_assignment.map((a) => a.id.split(':')[0]));
    user = snapshot.user.find((u) => u.data.status === 'ACTIVE' && !admins.has(u.id))!.id;
    groups = snapshot.group.filter((g) => g.data.type === 'OKTA_GROUP').map((g) => g.id);
    const [first] = snapshot.app;
    app = { id: first.id, name: String(first.data.name), label: String(first.data.label) };
  });

  afterAll(async () => {
    await client.close();
    await sut.close();
  });

  it("limits a user's USER_ADMIN to groups; the first target narrows it, the last cannot be removed", async () => {
    const roleId = await grant(`/api/v1/users/${user}`, 'USER_ADMIN');
    const targets = `/api/v1/users/${user}/roles/${roleId}/targets/groups`;
    expect((await call('GET', targets)).body).toEqual([]);

    expect((await call('PUT', `${targets}/${groups[0]}`)).status).toBe(204);
    expect((await call('PUT', `${targets}/${groups[1]}`)).status).toBe(204);
    const listed = await call('GET', `${targets}?limit=200`);
    expect(ids(listed.body)).toEqual([groups[0], groups[1]]);
    expect(listed.body[0]).toMatchObject({ id: groups[0], profile: { name: expect.any(String) } });

    expect((await call('DELETE', `${targets}/${groups[0]}`)).status).toBe(204);
    const last = await call('DELETE', `${targets}/${groups[1]}`);
    expect([last.status, last.body.errorCode]).toEqual([400, 'E0000001']);
    expect(ids((await call('GET', targets)).body)).toEqual([groups[1]]);
    expect((await call('DELETE', `${targets}/${groups[0]}`)).status).toBe(404);
  });

  it("pages a group's targets with limit and after", async () => {
    const owner = `/api/v1/groups/${groups[0]}`;
    const roleId = await grant(owner, 'GROUP_MEMBERSHIP_ADMIN');
    const targets = `${owner}/roles/${roleId}/targets/groups`;
    for (const id of groups.slice(1, 4)) expect((await call('PUT', `${targets}/${id}`)).status).toBe(204);

    const first = await client.call('GET', `${targets}?limit=2`);
    const next = /<([^>]+)>; rel="next"/.exec(String(first.headers.link))?.[1];
    const second = await client.call('GET', next!);

    expect([...ids(first.body), ...ids(second.body)]).toEqual(groups.slice(1, 4));
  });

  it('limits an APP_ADMIN to app instances and whole OIN apps, listed as recorded', async () => {
    const owner = `/api/v1/groups/${groups[1]}`;
    const roleId = await grant(owner, 'APP_ADMIN');
    const targets = `${owner}/roles/${roleId}/targets/catalog/apps`;

    expect((await call('PUT', `${targets}/${app.name}/${app.id}`)).status).toBe(204);
    expect((await call('PUT', `${targets}/facebook`)).status).toBe(204);
    const listed = (await call('GET', targets)).body;
    expect(listed).toEqual([
      {
        name: app.label,
        status: 'ACTIVE',
        id: app.id,
        _links: { self: { href: `${sut.baseUrl}/api/v1/apps/${app.id}` } },
      },
      expect.objectContaining({ name: 'facebook', displayName: 'Facebook' }),
    ]);
    expect(listed[1]).not.toHaveProperty('id');

    // A whole OIN app replaces the instance targets of that app; an instance of it is then refused.
    expect((await call('PUT', `${targets}/${app.name}`)).status).toBe(204);
    expect(ids((await call('GET', targets)).body)).toEqual(['facebook', app.name]);
    expect((await call('PUT', `${targets}/${app.name}/${app.id}`)).status).toBe(400);
    expect((await call('PUT', `${targets}/no_such_app`)).status).toBe(404);
    expect((await call('DELETE', `${targets}/facebook`)).status).toBe(204);
    expect((await call('DELETE', `${targets}/${app.name}`)).status).toBe(400);
  });

  it('refuses targets a role type does not take, and unknown roles, groups and apps', async () => {
    const owner = `/api/v1/users/${user}`;
    const reportAdmin = await grant(owner, 'REPORT_ADMIN');
    const appAdmin = await grant(owner, 'APP_ADMIN');

    const wrong = await call('PUT', `${owner}/roles/${reportAdmin}/targets/groups/${groups[0]}`);
    expect([wrong.status, wrong.body.errorCode]).toEqual([400, 'E0000091']);
    expect((await call('PUT', `${owner}/roles/${appAdmin}/targets/groups/${groups[0]}`)).status).toBe(400);
    expect((await call('GET', `${owner}/roles/${appAdmin}/targets/groups`)).body).toEqual([]);
    expect(
      (await call('PUT', `${owner}/roles/${appAdmin}/targets/catalog/apps/x/0oamissing0000000000`)).status,
    ).toBe(404);
    expect((await call('PUT', `${owner}/roles/missing/targets/groups/${groups[0]}`)).status).toBe(404);
    expect(
      (await call('PUT', `${owner}/roles/${reportAdmin}/targets/groups/00gmissing0000000000`)).status,
    ).toBe(404);
  });

  it('drops the targets of an unassigned role, and a deleted group from every role it limits', async () => {
    const owner = `/api/v1/users/${user}`;
    const roleId = await grant(owner, 'HELP_DESK_ADMIN');
    const group = (
      (await call('POST', '/api/v1/groups', { profile: { name: 'Short-lived' } })).body as unknown as Created
    ).id;
    await call('PUT', `${owner}/roles/${roleId}/targets/groups/${groups[2]}`);
    await call('PUT', `${owner}/roles/${roleId}/targets/groups/${group}`);
    const targetIds = () =>
      sut
        .snapshot()
        .admin_role_target.filter((t) => t.id.startsWith(`${user}:${roleId}:`))
        .map((t) => t.id);
    expect(targetIds()).toEqual([`${user}:${roleId}:${groups[2]}`, `${user}:${roleId}:${group}`]);

    await call('DELETE', `/api/v1/groups/${group}`);
    expect(targetIds()).toEqual([`${user}:${roleId}:${groups[2]}`]);
    await call('DELETE', `${owner}/roles/${roleId}`);
    expect(targetIds()).toEqual([]);
    expect((await call('GET', `${owner}/roles/${roleId}/targets/groups`)).status).toBe(404);
  });
});
