import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { graphResourceUnitsPer10s } from '@libs/providers/entra/graph-rate-limits.js';

import { GraphError } from './graph-error.js';
import { GraphThrottle, resourceUnitCost } from './resource-units.js';
import { startEntraSimulator, type RunningEntraSimulator } from './simulator.js';
import { graphClient, type GraphTestClient } from './testing/graph-client.js';

const url = (query = '') => new URL(`https://graph.microsoft.com/v1.0/x${query}`);

describe('Graph resource units (throttling-limits, identity and access)', () => {
  it('costs requests by the table and the query options, never below 1', () => {
    expect(resourceUnitCost('GET', '/v1.0/users', url())).toBe(2);
    expect(resourceUnitCost('GET', '/v1.0/users', url('?$select=id'))).toBe(1);
    expect(resourceUnitCost('GET', '/v1.0/groups/{id}/members', url('?$select=id&$top=999'))).toBe(2);
    expect(resourceUnitCost('GET', '/v1.0/groups/{id}/members', url('?$top=5'))).toBe(2);
    expect(resourceUnitCost('GET', '/v1.0/users', url('?$expand=manager'))).toBe(3);
    expect(resourceUnitCost('GET', '/v1.0/domains', url('?$select=id&$top=1'))).toBe(1);
    expect(resourceUnitCost('PATCH', '/v1.0/users/{id}', url())).toBe(1);
  });

  it('sizes the application+tenant budget by tenant users: S 3,500, M 5,000, L 8,000 per 10 s', () => {
    expect([49, 50, 500, 501].map(graphResourceUnitsPer10s)).toEqual([3_500, 5_000, 5_000, 8_000]);
  });

  it('refuses past the budget with a fractional Retry-After, and admits again once refilled', () => {
    let now = 0;
    const sut = new GraphThrottle(
      'tenant',
      () => 10,
      true,
      () => now,
    );
    for (let i = 0; i < 1_750; i++) sut.admit('app', 'GET', '/v1.0/users', url());
    const refused = (() => {
      try {
        sut.admit('app', 'GET', '/v1.0/users', url());
      } catch (error) {
        return error as GraphError;
      }
      return undefined;
    })();
    expect(refused?.status).toBe(429);
    expect(refused?.headers).toMatchObject({
      'Retry-After': '0.006',
      'x-ms-throttle-scope': 'Tenant_Application/Read/app/tenant',
      'x-ms-throttle-information': 'ResourceUnitLimitExceeded',
    });
    // Another app has its own budget.
    expect(sut.admit('other', 'GET', '/v1.0/users', url()).headers).toEqual({ 'x-ms-resource-unit': '2' });
    now += 6;
    expect(sut.admit('app', 'GET', '/v1.0/users', url()).headers).toEqual({ 'x-ms-resource-unit': '2' });
  });

  it('counts writes against the write quota of 3,000 per 2 min 30 s', () => {
    const sut = new GraphThrottle(
      'tenant',
      () => 10_000,
      true,
      () => 0,
    );
    let refused: GraphError | undefined;
    for (let i = 0; i <= 3_000 && !refused; i++)
      try {
        sut.admit('app', 'PATCH', '/v1.0/users/{id}', url());
      } catch (error) {
        refused = error as GraphError;
      }
    expect(refused?.headers).toMatchObject({
      'x-ms-throttle-information': 'WriteLimitExceeded',
      'Retry-After': '0.050',
    });
  });
});

describe('Graph simulator throttling over HTTPS', () => {
  let sim: RunningEntraSimulator;
  let graph: GraphTestClient;

  beforeAll(async () => {
    sim = await startEntraSimulator({ users: 5, groups: 1, throttling: true });
    graph = await graphClient(sim, ['User.Read.All', 'Policy.Read.All']);
  });
  afterAll(async () => {
    await graph?.close();
    await sim?.close();
  });

  it('answers every Graph request with its resource units', async () => {
    expect((await graph.call('GET', '/v1.0/users')).headers['x-ms-resource-unit']).toBe('2');
    expect((await graph.call('GET', '/v1.0/users?$select=id')).headers['x-ms-resource-unit']).toBe('1');
  });

  it('allows conditional access 1 request per second per tenant, refusing without Retry-After', async () => {
    const first = await graph.call('GET', '/v1.0/identity/conditionalAccess/policies');
    const second = await graph.call('GET', '/v1.0/identity/conditionalAccess/namedLocations');
    expect(first.status).toBe(200);
    expect(second.status).toBe(429);
    expect(second.body).toMatchObject({ error: { code: 'TooManyRequests' } });
    expect(second.headers['retry-after']).toBeUndefined();
  });
});
