import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import { createConnection, runBackup } from './support/backup-helpers.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

type Json = Record<string, unknown>;
interface Entry {
  connectionId: string;
  score: number;
  lastBackupAt: string | null;
  drift: { changes: number; bySeverity: Record<string, number>; checkedAt: string; since: string } | null;
}

/**
 * Resilience and readiness of a backed-up simulated org; a password policy weakened after the
 * backup shows as drift once the drift job (every second here) has read the System Log.
 */
describe('GET /api/scores (HTTP, real PostgreSQL, simulator over HTTPS)', () => {
  let org: TestOrg;
  let okta: SimulatorClient;
  let ctx: TestApp;
  let admin: TestClient;
  let viewer: TestClient;
  let connectionId: string;
  let backup: BackupDto;

  const get = (path: string, client = viewer) =>
    ctx.http.get(path).set('Authorization', `Bearer ${client.token}`);
  /** Polls readiness until `until` holds for the connection's entry (the drift job runs every second). */
  const readinessWhen = async (
    until: (entry: Entry) => boolean,
  ): Promise<{ score: number; entry: Entry }> => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const response = await get('/api/scores/readiness');
      expect(response.status).toBe(200);
      const entry = (response.body.perConnection as Entry[]).find((e) => e.connectionId === connectionId)!;
      if (until(entry)) return { score: response.body.score, entry };
      if (Date.now() > deadline) throw new Error(`readiness never matched: ${JSON.stringify(entry)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };

  beforeAll(async () => {
    org = await startTestOrg({ users: 20, groups: 4, apps: 3, seed: 27 });
    okta = new SimulatorClient(org.sim);
    ctx = await startTestApp({ ...org.env, DRIFT_CHECK_INTERVAL_SECONDS: '1' });
    admin = await ctx.newClient({ role: 'admin' });
    viewer = await ctx.newClient({ role: 'viewer', teamId: admin.teamId });
    connectionId = await createConnection(ctx, admin.token, { baseUrl: org.sim.baseUrl, ...org.integration });
    backup = await runBackup(ctx, admin.token, { connectionId });
    expect(backup.status).toBe('completed');
  });

  afterAll(async () => {
    await ctx?.close();
    await okta?.agent.close();
    await org?.sim.close();
  });

  it('explains resilience with five weighted factors and a recommendation for each shortfall', async () => {
    const response = await get(`/api/scores/resilience?connectionId=${connectionId}`);

    expect(response.status).toBe(200);
    const factors = response.body.factors as Array<{
      name: string;
      weight: number;
      value: number;
      notes: string;
    }>;
    expect(factors.map((f) => f.name)).toEqual([
      'recency',
      'success_rate',
      'coverage',
      'tested_restores',
      'protection',
    ]);
    expect(factors.reduce((sum, f) => sum + f.weight, 0)).toBe(100);
    const byName = Object.fromEntries(factors.map((f) => [f.name, f]));
    expect(byName.recency.value).toBe(100);
    expect(byName.success_rate).toMatchObject({
      value: 100,
      notes: '1 of 1 backups of the last 30 days completed.',
    });
    expect(byName.tested_restores).toMatchObject({
      value: 0,
      notes: 'No restore of this connection has completed.',
    });
    expect(byName.protection.value).toBe(100);
    expect(response.body.score).toBe(
      Math.round(factors.reduce((sum, f) => sum + f.weight * f.value, 0) / 100),
    );
    expect(response.body.recommendations).toContain(
      'No restore was ever tested: run a verification drill (a restore into a sandbox org, or `npm run demo`).',
    );
  });

  it('shows a password policy weakened after the backup as critical drift, which lowers readiness', async () => {
    const before = await readinessWhen((e) => e.drift !== null);
    expect(before.entry).toMatchObject({
      lastBackupAt: new Date(backup.started_at as string).toISOString(),
      drift: { changes: 0, since: new Date(backup.started_at as string).toISOString() },
    });

    const policy = org.sim.snapshot().policy.find((p) => p.data.type === 'PASSWORD')!;
    const settings = structuredClone(policy.data.settings) as { password: { complexity: Json } };
    settings.password.complexity.minLength = 6;
    const { _links: _ignored, ...body } = policy.data;
    expect(
      (await okta.call('PUT', `/api/v1/policies/${policy.id}`, { json: { ...body, settings } })).status,
    ).toBe(200);

    const after = await readinessWhen((e) => (e.drift?.changes ?? 0) > 0);
    expect(after.entry.drift!.bySeverity).toEqual({ critical: 1 });
    expect(after.entry.score).toBeLessThan(before.entry.score);
    expect(after.score).toBe(after.entry.score);
  });

  it("answers 404 for another team's connection, 400 for a bad id, and lists only the team's connections", async () => {
    const stranger = await ctx.newClient({ role: 'viewer' });

    expect((await get(`/api/scores/resilience?connectionId=${connectionId}`, stranger)).status).toBe(404);
    expect((await get('/api/scores/resilience?connectionId=nope')).status).toBe(400);
    const theirs = await get('/api/scores/readiness', stranger);
    expect(theirs.body).toEqual({ score: 0, perConnection: [] });
  });
});
