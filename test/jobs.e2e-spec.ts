import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { createConnection, runBackup } from './support/backup-helpers.js';

describe('jobs a replica enqueues for itself (pg-boss, real PostgreSQL)', () => {
  let org: TestOrg;
  let ctx: TestApp;
  let admin: TestClient;

  beforeAll(async () => {
    org = await startTestOrg({ users: 20, groups: 3, apps: 2, seed: 5 });
    // Its worker polled once on start and would not look again for five minutes.
    ctx = await startTestApp({ ...org.env, JOB_POLL_SECONDS: '300' });
    admin = await ctx.newClient({ role: 'admin' });
  });

  afterAll(async () => {
    await ctx?.close();
    await org?.sim.close();
  });

  it('starts a backup at once instead of at the next poll', async () => {
    const connectionId = await createConnection(ctx, admin.token, {
      baseUrl: org.sim.baseUrl,
      ...org.integration,
    });

    const started = Date.now();
    const backup = await runBackup(ctx, admin.token, { connectionId });

    expect(backup.status).toBe('completed');
    // Far less than the poll interval: the worker was woken, not polled.
    expect(Date.now() - started).toBeLessThan(60_000);
  });
});
