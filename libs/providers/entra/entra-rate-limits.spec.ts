import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { startEntraSimulator, type RunningEntraSimulator } from '@libs/simulators/entra/index.js';
import { graphClient } from '@libs/simulators/entra/testing/graph-client.js';
import { collectParts, collectRecords, cursorsOf } from '@libs/providers/testing/collect-parts.js';

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

  it('sends its conditional access reads back to back with an interval of 0, and meets the 429 the second is spared', async () => {
    const sut = new EntraConnector({
      graphUrl: sim.baseUrl,
      tenantId: sim.tenantId,
      ...app,
      allowedHosts: ['127.0.0.1'],
      caCertPem: sim.caCertPem,
      conditionalAccessIntervalMs: 0,
    });
    try {
      const records = await collectRecords(sut, { types: ['named_location', 'conditional_access_policy'] });
      const expected = sim.snapshot();
      for (const type of ['named_location', 'conditional_access_policy'])
        expect(records.get(type)?.map(({ id, name, data }) => ({ id, name, data }))).toEqual(expected[type]);
      expect(sut.stats().status429).toBeGreaterThanOrEqual(1);
    } finally {
      await sut.close();
    }
  });
});

describe('EntraConnector JSON batches when Graph fails some of their requests', () => {
  let sim: RunningEntraSimulator;

  beforeEach(async () => {
    sim = await startEntraSimulator({ users: 60, groups: 2, seed: 6, faults: { errorRate: 0.1, seed: 3 } });
  });
  afterEach(async () => {
    await sim?.close();
  });

  it("sends a batch's failed requests again, and reads every changed object", async () => {
    const app = sim.registerApp(entraBackupPermissions());
    const options = {
      graphUrl: sim.baseUrl,
      tenantId: sim.tenantId,
      ...app,
      allowedHosts: ['127.0.0.1'],
      caCertPem: sim.caCertPem,
    };
    const full = new EntraConnector(options);
    const cursors = cursorsOf(await collectParts(full, { types: ['user'] }));
    await full.close();
    const writer = await graphClient(sim, ['User.ReadWrite.All']);
    const changed = sim.snapshot().user.slice(0, 50);
    for (const user of changed) {
      let status = 0;
      // The tenant's own tools retry Graph's 503s too.
      while (status !== 204)
        status = (await writer.call('PATCH', `/v1.0/users/${user.id}`, { department: 'Audit' })).status;
    }
    await writer.close();
    const before = sim.requestCounts()['GET /v1.0/users/{id}'] ?? 0;
    const sut = new EntraConnector(options);
    try {
      const parts = await collectParts(sut, { types: ['user'], cursors });
      const now = new Map(sim.snapshot().user.map((u) => [u.id, u.data]));
      expect(parts.get('user')?.records.map((r) => [r.id, r.data])).toEqual(
        changed.map((u) => [u.id, now.get(u.id)]),
      );
      // 50 users in 3 batches, and the requests Graph failed inside them sent again.
      expect((sim.requestCounts()['GET /v1.0/users/{id}'] ?? 0) - before).toBeGreaterThan(50);
    } finally {
      await sut.close();
    }
  });
});
