import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { startSimulator } from '@libs/simulators/okta/index.js';
import type { RunningSimulator } from '@libs/simulators/okta/simulator-options.js';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import { bucketFor } from './rate-limit-buckets.js';

describe('rate-limit buckets', () => {
  it.each([
    ['GET', '/api/v1/apps', 'apps', 100],
    ['GET', '/api/v1/apps/{appId}/users', 'apps', 100],
    ['GET', '/api/v1/apps/{appId}', 'apps-by-id', 600],
    ['GET', '/api/v1/groups/{groupId}/users', 'groups', 600],
    ['GET', '/api/v1/users', 'users', 600],
    ['GET', '/api/v1/users/{id}', 'user-get', 1000],
    ['DELETE', '/api/v1/users/{id}', 'user-write', 600],
    ['POST', '/oauth2/v1/token', 'oauth2', 1200],
    ['GET', '/api/v1/zones', 'api-v1', 600],
    ['GET', '/api/v1/logs', 'logs', 50],
  ])('%s %s counts against %s (%d/min)', (method, template, name, perMinute) => {
    expect(bucketFor(method, template)).toEqual({ name, perMinute });
  });
});

describe('rate limits over HTTPS', () => {
  let unlimited: RunningSimulator;
  let enterprise: RunningSimulator;

  beforeAll(async () => {
    [unlimited, enterprise] = await Promise.all([
      startSimulator({ users: 5 }),
      startSimulator({ users: 5, rateLimits: 'enterprise' }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([unlimited.close(), enterprise.close()]);
  });

  it("sends X-Rate-Limit-* on every response and never 429s with 'none'", async () => {
    const client = new SimulatorClient(unlimited);
    for (let i = 0; i < 150; i++) {
      const response = await client.call('GET', '/api/v1/apps');
      expect(response.status).toBe(200);
    }
    const response = await client.call('GET', '/api/v1/nothing');
    expect(Number(response.headers['x-rate-limit-limit'])).toBeGreaterThanOrEqual(1_000_000);
    await client.close();
  });

  it("refuses the 101st /api/v1/apps call of the minute with 429 E0000047 under 'enterprise'", async () => {
    const client = new SimulatorClient(enterprise);
    const first = await client.call('GET', '/api/v1/apps');
    expect(first.headers['x-rate-limit-limit']).toBe('100');
    expect(first.headers['x-rate-limit-remaining']).toBe('99');
    const reset = Number(first.headers['x-rate-limit-reset']);
    const now = Date.now() / 1000;
    expect(reset).toBeGreaterThan(now);
    expect(reset).toBeLessThanOrEqual(Math.ceil(now) + 60);

    for (let i = 1; i < 100; i++)
      expect((await client.call('GET', `/api/v1/apps?limit=${i}`)).status).toBe(200);
    const refused = await client.call('GET', '/api/v1/apps');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      errorCode: 'E0000047',
      errorSummary: 'API call exceeded rate limit due to too many requests.',
    });
    expect(refused.headers['x-rate-limit-remaining']).toBe('0');
    expect(refused.headers['x-rate-limit-reset']).toBe(String(reset));

    // Other buckets are counted separately.
    expect((await client.call('GET', '/api/v1/groups')).status).toBe(200);
    expect(enterprise.requestLog()).toMatchObject({
      total: 102,
      status429: 1,
      byEndpoint: { 'GET /api/v1/apps': 101, 'GET /api/v1/groups': 1 },
    });
    await client.close();
  });

  it('switches limits at run time, each bucket in a fresh window', async () => {
    const switching = await startSimulator({ users: 5 });
    const client = new SimulatorClient(switching);
    for (let i = 0; i < 150; i++) expect((await client.call('GET', '/api/v1/apps')).status).toBe(200);

    switching.setRateLimits('enterprise');
    const statuses: number[] = [];
    for (let i = 0; i < 101; i++) statuses.push((await client.call('GET', '/api/v1/apps')).status);

    expect(statuses.filter((status) => status === 200)).toHaveLength(100);
    expect(statuses[100]).toBe(429);
    await client.close();
    await switching.close();
  });
});
