import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { createConnection, waitForBackup } from './support/backup-helpers.js';

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

    const run = await ctx.http
      .post('/api/backup/run')
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ connectionId });
    expect(run.status).toBe(202);

    // A tenth of the poll interval: only a woken worker can finish in time.
    const final = await waitForBackup(ctx, admin.token, run.body.backupId, 30_000);
    expect(final).toMatchObject({ status: 'completed', progress_pct: 100 });
  });
});
