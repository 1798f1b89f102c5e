import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { StaleRunSweeper } from '@app/platform/jobs/tracked-run/stale-run.sweeper.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { createConnection } from './support/backup-helpers.js';

/**
 * An `api`-only replica enqueues but never works a job: from the database's point of view its
 * backups look exactly like those of a worker that died (no heartbeat).
 */
describe('a backup whose worker is gone', () => {
  let org: TestOrg;
  let ctx: TestApp;
  let admin: TestClient;

  beforeAll(async () => {
    org = await startTestOrg({ users: 5, groups: 2, apps: 1, seed: 4 });
    ctx = await startTestApp({ ...org.env, ROLE: 'api' });
    admin = await ctx.newClient({ role: 'admin' });
  });

  afterAll(async () => {
    await ctx?.close();
    await org?.sim.close();
  });

  it('stays running while heartbeats are recent, then is failed with a message, never left running', async () => {
    const auth = { Authorization: `Bearer ${admin.token}` };
    const connectionId = await createConnection(ctx, admin.token, {
      baseUrl: org.sim.baseUrl,
      ...org.integration,
    });
    const run = await ctx.http.post('/api/backup/run').set(auth).send({ connectionId });
    expect(run.status).toBe(202);
    const sweeper = ctx.app.get(StaleRunSweeper);

    expect(await sweeper.sweep(new Date(Date.now() + 60_000))).toEqual([]);
    expect((await ctx.http.get('/api/backup/active').set(auth)).body.active).toHaveLength(1);

    expect(await sweeper.sweep(new Date(Date.now() + 4 * 60_000))).toEqual([run.body.backupId]);
    const status = await ctx.http.get('/api/backup/status').query({ backupId: run.body.backupId }).set(auth);
    expect(status.body).toMatchObject({
      status: 'failed',
      error_message: 'The worker running this backup stopped responding; run it again',
      completed_at: expect.any(String),
    });
    expect((await ctx.http.get('/api/backup/active').set(auth)).body.active).toEqual([]);
    const again = await ctx.http.post('/api/backup/run').set(auth).send({ connectionId });
    expect(again.status).toBe(202);
  });
});
