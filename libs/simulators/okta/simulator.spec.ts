import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { startSimulator } from './index.js';
import type { RunningSimulator } from './simulator-options.js';
import { SimulatorClient } from './testing/simulator-client.js';

describe('startSimulator', () => {
  let sut: RunningSimulator;
  let client: SimulatorClient;

  beforeAll(async () => {
    sut = await startSimulator();
    client = new SimulatorClient(sut);
  });

  afterAll(async () => {
    await client.close();
    await sut.close();
  });

  it('serves HTTPS on loopback with a certificate signed by its CA', async () => {
    expect(sut.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const response = await client.call('GET', '/api/v1/users?limit=2');
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(2);
  });

  it('answers 401 E0000011 without a valid token', async () => {
    const response = await client.call('GET', '/api/v1/users', { auth: null });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ errorCode: 'E0000011', errorSummary: 'Invalid token provided' });
  });

  it('holds a default org of 50 users, 11 groups (Everyone included) and 5 apps', () => {
    const snapshot = sut.snapshot();
    expect(snapshot.user).toHaveLength(50);
    expect(snapshot.group).toHaveLength(11);
    expect(snapshot.app).toHaveLength(5);
  });
});
