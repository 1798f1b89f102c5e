import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { createConnection, openSnapshot, runBackup } from './support/backup-helpers.js';

describe('a backup of an org that fails 5 % of its requests (500s, dropped connections, cut-off bodies)', () => {
  let org: TestOrg;
  let ctx: TestApp;
  let admin: TestClient;

  beforeAll(async () => {
    org = await startTestOrg({
      users: 1500,
      groups: 40,
      apps: 10,
      seed: 21,
      faults: { errorRate: 0.02, dropRate: 0.015, truncateRate: 0.015, seed: 5 },
    });
    ctx = await startTestApp(org.env);
    admin = await ctx.newClient({ role: 'admin' });
  });

  afterAll(async () => {
    await ctx?.close();
    await org?.sim.close();
  });

  it('still completes, and holds exactly the objects of the org', async () => {
    const connectionId = await createConnection(ctx, admin.token, {
      baseUrl: org.sim.baseUrl,
      ...org.integration,
    });
    const backup = await runBackup(ctx, admin.token, { connectionId });
    expect(backup.status).toBe('completed');

    const log = org.sim.requestLog();
    expect(log.total).toBeGreaterThan(backup.requests * 0.9);
    const reader = await openSnapshot(ctx, backup.storage_key);
    for (const [type, objects] of Object.entries(org.sim.snapshot())) {
      const stored = new Map<string, unknown>();
      for await (const record of reader.readPart(type)) stored.set(record.id, record.data);
      expect([type, stored.size]).toEqual([type, objects.length]);
      for (const object of objects) expect(stored.get(object.id)).toEqual(object.data);
    }
  });
});
