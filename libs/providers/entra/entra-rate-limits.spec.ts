import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { startEntraSimulator, type RunningEntraSimulator } from '@libs/entra-simulator/index.js';
import { graphClient } from '@libs/entra-simulator/testing/graph-client.js';
import { collectRecords } from '@libs/providers/testing/collect-parts.js';

import { EntraConnector } from './entra-connector.js';
import { ENTRA_RESOURCE_TYPES, entraBackupPermissions } from './entra-resource-catalog.js';

/**
 * The connector under Graph's throttling (the simulator with `throttling`): it keeps the
 * conditional access paths to 1 request per second, and when another app took the tenant's
 * second there, it survives the 429 that comes without `Retry-After` by backing off.
 */
describe('EntraConnector under Graph throttling', () => {
  let sim: RunningEntraSimulator;
  let app: { clientId: string; clientSecret: string };

  // A tenant per test: the conditional access second is the tenant's, all apps together.
  beforeEach(async () => {
    sim = await startEntraSimulator({ users: 30, groups: 3, seed: 5, throttling: true });
    app = sim.registerApp(entraBackupPermissions());
  });
  afterEach(async () => {
    await sim?.close();
  });

  it('collects every object, its conditional access reads spaced, after a 429 without Retry-After', async () => {
    const other = await graphClient(sim, ['Policy.Read.All']);
    const sut = new EntraConnector({
      graphUrl: sim.baseUrl,
      tenantId: sim.tenantId,
      ...app,
      allowedHosts: ['127.0.0.1'],
      caCertPem: sim.caCertPem,
    });
    try {
      // Another app of the tenant takes this second of the conditional access limit.
      expect((await other.call('GET', '/v1.0/identity/conditionalAccess/policies')).status).toBe(200);
      const records = await collectRecords(sut, { types: ['named_location', 'conditional_access_policy'] });
      const expected = sim.snapshot();
      for (const type of ['named_location', 'conditional_access_policy'])
        expect(records.get(type)?.map(({ id, name, data }) => ({ id, name, data }))).toEqual(expected[type]);
      expect(sut.stats().status429).toBeGreaterThanOrEqual(1);
      expect(sut.stats().retries).toBe(sut.stats().status429);
    } finally {
      await sut.close();
      await other.close();
    }
  });

  it('makes a full collection with no 429, its own conditional access reads a second apart', async () => {
    const sut = new EntraConnector({
      graphUrl: sim.baseUrl,
      tenantId: sim.tenantId,
      ...app,
      allowedHosts: ['127.0.0.1'],
      caCertPem: sim.caCertPem,
    });
    try {
      const started = Date.now();
      const records = await collectRecords(sut);
      expect([...records.keys()]).toEqual([...ENTRA_RESOURCE_TYPES]);
      expect(sut.stats().status429).toBe(0);
      // Two conditional access lists, a second apart.
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    } finally {
      await sut.close();
    }
  });
});
