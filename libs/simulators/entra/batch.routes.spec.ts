import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { startEntraSimulator, type RunningEntraSimulator } from './simulator.js';
import { graphClient, type GraphTestClient } from './testing/graph-client.js';

describe('Entra simulator JSON batching', () => {
  let sim: RunningEntraSimulator;
  let graph: GraphTestClient;

  beforeAll(async () => {
    sim = await startEntraSimulator({ users: 5, groups: 1, seed: 4 });
    graph = await graphClient(sim, ['User.Read.All']);
  });
  afterAll(async () => {
    await graph?.close();
    await sim?.close();
  });

  it('answers each request of a batch as on its own, permissions and all, up to 20', async () => {
    const [user] = sim.snapshot().user;
    const batch = await graph.call('POST', '/v1.0/$batch', {
      requests: [
        { id: '1', method: 'GET', url: `/users/${user.id}?$select=id,displayName` },
        { id: '2', method: 'GET', url: '/users/00000000-0000-4000-a000-000000000000' },
        { id: '3', method: 'GET', url: '/identity/conditionalAccess/policies' },
      ],
    });
    expect(batch.status).toBe(200);
    const byId = Object.fromEntries(
      (batch.body.responses as Array<Record<string, unknown>>).map((r) => [r.id, r]),
    );
    expect(byId['1']).toMatchObject({
      status: 200,
      headers: { 'x-ms-resource-unit': '1' },
      body: { id: user.id, displayName: user.data.displayName },
    });
    expect(byId['2']).toMatchObject({ status: 404, body: { error: { code: 'Request_ResourceNotFound' } } });
    expect(byId['3']).toMatchObject({
      status: 403,
      body: { error: { code: 'Authorization_RequestDenied' } },
    });
    expect(sim.requestCounts()['GET /v1.0/users/{id}']).toBe(2);
    const tooMany = Array.from({ length: 21 }, (_, i) => ({ id: String(i), method: 'GET', url: '/users' }));
    expect((await graph.call('POST', '/v1.0/$batch', { requests: tooMany })).status).toBe(400);
  });
});
