import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { startSimulator } from '@libs/simulators/okta/index.js';
import type { RunningSimulator } from '@libs/simulators/okta/simulator-options.js';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';

/** Okta's error body: every field present, errorLink equal to errorCode. */
function oktaError(errorCode: string, summary?: string | RegExp) {
  return {
    errorCode,
    errorSummary: summary ?? expect.any(String),
    errorLink: errorCode,
    errorId: expect.stringMatching(/^oae\w{22}$/),
    errorCauses: expect.any(Array),
  };
}

describe('lifecycle gates and errors', () => {
  let sut: RunningSimulator;
  let client: SimulatorClient;

  beforeAll(async () => {
    sut = await startSimulator({ seed: 11 });
    client = new SimulatorClient(sut);
  });

  afterAll(async () => {
    await client.close();
    await sut.close();
  });

  const profile = (login: string) => ({ firstName: 'Grace', lastName: 'Hopper', email: login, login });

  it('walks a user from STAGED to deleted; the first DELETE only deactivates', async () => {
    const created = await client.call('POST', '/api/v1/users?activate=false', {
      json: { profile: profile('grace@example.com') },
    });
    expect(created.status).toBe(200);
    const user = created.body as { id: string; status: string };
    expect(user.status).toBe('STAGED');

    expect(
      (await client.call('POST', `/api/v1/users/${user.id}/lifecycle/activate?sendEmail=false`)).body,
    ).toEqual({
      activationUrl: expect.any(String),
      activationToken: expect.any(String),
    });
    expect((await client.call('GET', `/api/v1/users/${user.id}`)).body).toMatchObject({
      status: 'PROVISIONED',
    });

    const suspend = await client.call('POST', `/api/v1/users/${user.id}/lifecycle/suspend`);
    expect(suspend.status).toBe(400);
    expect(suspend.body).toEqual(oktaError('E0000001'));

    expect((await client.call('DELETE', `/api/v1/users/${user.id}`)).status).toBe(204);
    expect((await client.call('GET', '/api/v1/users/grace@example.com')).body).toMatchObject({
      status: 'DEPROVISIONED',
    });
    expect((await client.call('DELETE', `/api/v1/users/${user.id}`)).status).toBe(204);

    const gone = await client.call('GET', `/api/v1/users/${user.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual(oktaError('E0000007', `Not found: Resource not found: ${user.id} (User)`));
  });

  it('refuses to activate an ACTIVE user (403 E0000016) and a duplicate login (400 E0000001)', async () => {
    const created = await client.call('POST', '/api/v1/users', {
      json: { profile: profile('ada@example.com'), credentials: { password: { value: 'correct horse 1A' } } },
    });
    const user = created.body as { id: string; status: string; credentials: unknown };
    expect(user.status).toBe('ACTIVE');
    expect(user.credentials).toEqual({ password: {}, provider: { type: 'OKTA', name: 'OKTA' } });
    const again = await client.call('POST', `/api/v1/users/${user.id}/lifecycle/activate`);
    expect(again.status).toBe(403);
    expect(again.body).toEqual(oktaError('E0000016'));
    const duplicate = await client.call('POST', '/api/v1/users', {
      json: { profile: profile('ADA@example.com') },
    });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body).toEqual(oktaError('E0000001', 'Api validation failed: login'));
  });

  it('deletes an app only once deactivated (403 E0000056 before), with its assignments', async () => {
    const app = sut.snapshot().app.find((a) => a.data.status === 'ACTIVE');
    const refused = await client.call('DELETE', `/api/v1/apps/${app?.id}`);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      ...oktaError('E0000056', 'Delete application forbidden.'),
      errorCauses: [{ errorSummary: 'The application must be deactivated before deletion.' }],
    });
    const deactivated = await client.call('POST', `/api/v1/apps/${app?.id}/lifecycle/deactivate`);
    expect([deactivated.status, deactivated.body]).toEqual([200, {}]);
    expect((await client.call('DELETE', `/api/v1/apps/${app?.id}`)).status).toBe(204);
    expect((await client.call('GET', `/api/v1/apps/${app?.id}/users`)).status).toBe(404);
    expect(sut.snapshot().app_user_assignment.filter((a) => a.id.startsWith(`${app?.id}:`))).toEqual([]);
  });

  it('creates group rules INACTIVE and changes or deletes them only while INACTIVE', async () => {
    const [group] = sut.snapshot().group.filter((g) => g.data.type === 'OKTA_GROUP');
    const body = {
      type: 'group_rule',
      name: 'Engineers',
      conditions: {
        expression: { value: 'user.department=="Engineering"', type: 'urn:okta:expression:1.0' },
      },
      actions: { assignUserToGroups: { groupIds: [group.id] } },
    };
    const rule = (await client.call('POST', '/api/v1/groups/rules', { json: body })).body as {
      id: string;
      status: string;
    };
    expect(rule.status).toBe('INACTIVE');
    expect((await client.call('POST', `/api/v1/groups/rules/${rule.id}/lifecycle/activate`)).status).toBe(
      204,
    );
    expect((await client.call('PUT', `/api/v1/groups/rules/${rule.id}`, { json: body })).status).toBe(400);
    const refused = await client.call('DELETE', `/api/v1/groups/rules/${rule.id}`);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(oktaError('E0000001'));
    expect((await client.call('POST', `/api/v1/groups/rules/${rule.id}/lifecycle/deactivate`)).status).toBe(
      204,
    );
    expect((await client.call('DELETE', `/api/v1/groups/rules/${rule.id}`)).status).toBe(202);
  });

  it('deletes a network zone only once deactivated; deactivation answers the zone', async () => {
    const zone = sut.snapshot().network_zone.find((z) => z.name === 'Office Networks');
    expect((await client.call('DELETE', `/api/v1/zones/${zone?.id}`)).status).toBe(400);
    const deactivated = await client.call('POST', `/api/v1/zones/${zone?.id}/lifecycle/deactivate`);
    expect(deactivated.body).toMatchObject({ id: zone?.id, status: 'INACTIVE' });
    expect((await client.call('DELETE', `/api/v1/zones/${zone?.id}`)).status).toBe(204);
  });

  it('deletes an ACTIVE policy with its rules, as recorded Okta traffic does', async () => {
    const policy = sut.snapshot().policy.find((p) => p.data.system === false && p.data.status === 'ACTIVE');
    expect((await client.call('DELETE', `/api/v1/policies/${policy?.id}`)).status).toBe(204);
    expect((await client.call('GET', `/api/v1/policies/${policy?.id}/rules`)).status).toBe(404);
    expect(sut.snapshot().policy_rule.filter((r) => r.id.startsWith(`${policy?.id}:`))).toEqual([]);
  });

  it('manages group members and protects the BUILT_IN Everyone group', async () => {
    const [group] = sut.snapshot().group.filter((g) => g.data.type === 'OKTA_GROUP');
    const everyone = sut.snapshot().group.find((g) => g.data.type === 'BUILT_IN');
    const user = sut
      .snapshot()
      .user.find((u) => !sut.snapshot().group_membership.some((m) => m.id === `${group.id}:${u.id}`));
    expect((await client.call('PUT', `/api/v1/groups/${group.id}/users/${user?.id}`)).status).toBe(204);
    expect(sut.snapshot().group_membership).toContainEqual({
      id: `${group.id}:${user?.id}`,
      name: null,
      data: { groupId: group.id, userId: user?.id },
    });
    expect((await client.call('DELETE', `/api/v1/groups/${group.id}/users/${user?.id}`)).status).toBe(204);
    expect((await client.call('DELETE', `/api/v1/groups/${everyone?.id}`)).body).toEqual(
      oktaError('E0000006'),
    );
  });

  it('answers unknown paths 404 E0000008 and unsupported methods 405 E0000022', async () => {
    expect((await client.call('GET', '/api/v1/nothing-here')).body).toEqual(oktaError('E0000008'));
    const method = await client.call('PATCH', '/api/v1/users');
    expect([method.status, (method.body as { errorCode: string }).errorCode]).toEqual([405, 'E0000022']);
  });

  it('answers a body that is not JSON with 400 E0000003', async () => {
    const response = await client.call('POST', '/api/v1/groups', { form: { not: 'json' } });
    expect(response.body).toEqual(oktaError('E0000003', 'The request body was not well-formed.'));
  });
});
