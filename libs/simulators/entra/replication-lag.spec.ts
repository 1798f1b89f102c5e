import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { ReplicationLag } from './replication-lag.js';
import { startEntraSimulator, type RunningEntraSimulator } from './simulator.js';
import { DIRECTORY_WRITER_ROLES, graphClient, type GraphTestClient } from './testing/graph-client.js';

const NEW = '0b5a6e2c-6f7e-4d0a-9a51-1c1f7a1d2e3f';
const OLD = '5d1a2b3c-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

describe('ReplicationLag (a simulated clock)', () => {
  it('refuses a path naming a new object with 404 and a body naming it with 400, until its lag has passed', () => {
    let now = 1_000_000;
    const sut = new ReplicationLag({ maxMs: 120_000, timeScale: 60, seed: 3 }, () => now);
    sut.created({ id: NEW, displayName: 'new' });

    expect(() => sut.check('/v1.0/users/{id}', { id: OLD }, '')).not.toThrow();
    expect(() => sut.check('/v1.0/users/{id}', { id: NEW }, '')).toThrow(
      expect.objectContaining({ status: 404, code: 'Request_ResourceNotFound' }),
    );
    const link = `{"@odata.id":"https://graph.microsoft.com/v1.0/directoryObjects/${NEW}"}`;
    expect(() => sut.check('/v1.0/groups/{id}/members/$ref', { id: OLD }, link)).toThrow(
      expect.objectContaining({
        status: 400,
        code: 'Request_BadRequest',
        message: `Resource '${NEW}' does not exist or one of its queried reference-property objects are not present.`,
      }),
    );
    expect(() =>
      sut.check('/v1.0/servicePrincipals/{id}/appRoleAssignedTo', { id: OLD }, `{"principalId":"${NEW}"}`),
    ).toThrow(expect.objectContaining({ status: 400, message: 'Not a valid reference update.' }));

    // A two-minute worst case at a time scale of 60 is over within two real seconds.
    now += 2_000;
    expect(() => sut.check('/v1.0/groups/{id}/members/$ref', { id: OLD }, link)).not.toThrow();
    expect(() => sut.check('/v1.0/users/{id}', { id: NEW }, '')).not.toThrow();
  });

  it('draws each lag from its seed, within the bound', () => {
    const ids = Array.from(
      { length: 50 },
      (_, n) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    );
    /** How many of 50 objects created at 0 are still pending at each instant (ms). */
    const pendingAt = (seed: number, instants: number[]) => {
      let now = 0;
      const sut = new ReplicationLag({ maxMs: 10_000, seed }, () => now);
      for (const id of ids) sut.created({ id });
      return instants.map((at) => {
        now = at;
        return ids.filter((id) => {
          try {
            sut.check('/v1.0/users/{id}', { id }, '');
            return false;
          } catch {
            return true;
          }
        }).length;
      });
    };
    const [start, middle, end] = pendingAt(5, [0, 1_000, 10_000]);
    expect(pendingAt(5, [0, 1_000, 10_000])).toEqual([start, middle, end]);
    expect(start).toBe(50);
    expect(middle).toBeGreaterThan(10);
    expect(middle).toBeLessThan(40);
    expect(end).toBe(0);
  });
});

describe('replication lag over HTTPS (Graph simulator)', () => {
  let sim: RunningEntraSimulator;
  let admin: GraphTestClient;

  beforeAll(async () => {
    sim = await startEntraSimulator({
      users: 3,
      groups: 1,
      seed: 9,
      replicationLag: { maxMs: 60_000, timeScale: 1, seed: 2 },
    });
    admin = await graphClient(sim, DIRECTORY_WRITER_ROLES);
  });
  afterAll(async () => {
    await admin?.close();
    await sim?.close();
  });

  it('answers a read back of a new user 404 and its membership 400 while it replicates; lists show it', async () => {
    const created = await admin.call('POST', '/v1.0/users', {
      accountEnabled: false,
      displayName: 'Lagging Lee',
      mailNickname: 'lee',
      userPrincipalName: 'lee@contoso.onmicrosoft.com',
      passwordProfile: { password: 'A-long-random-password-1', forceChangePasswordNextSignIn: true },
    });
    expect(created.status).toBe(201);
    const id = String(created.body.id);
    const [group] = sim.snapshot().group;

    const readBack = await admin.call('GET', `/v1.0/users/${id}`);
    expect(readBack).toMatchObject({ status: 404, body: { error: { code: 'Request_ResourceNotFound' } } });
    const member = await admin.call('POST', `/v1.0/groups/${group.id}/members/$ref`, {
      '@odata.id': `https://graph.microsoft.com/v1.0/directoryObjects/${id}`,
    });
    expect(member).toMatchObject({
      status: 400,
      body: {
        error: {
          code: 'Request_BadRequest',
          message: `Resource '${id}' does not exist or one of its queried reference-property objects are not present.`,
        },
      },
    });
    const list = await admin.call('GET', '/v1.0/users?$select=id');
    expect(list.body.value.map((user) => user.id)).toContain(id);
  });
});
