import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type RunningSimulator } from '@libs/simulators/okta/index.js';
import { installApiServiceIntegration } from '@tools/demo/okta-api-service.js';
import { WeeklyVerificationJob } from '@app/drills/weekly-verification.job.js';
import { createConnection, runBackup } from './support/backup-helpers.js';
import { rememberSecrets } from './support/log-capture.js';
import { RESTORE_SCOPES } from './support/restore-helpers.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

type Json = Record<string, unknown>;

/**
 * Sandbox drills (docs/restore.md "Into another org"): POST /api/backup/{id}/verify with a
 * sandbox connection restores the backup there, backs the sandbox up and reports what still
 * differs modulo the mapping. One sandbox takes every write and the drill passes; another's
 * integration was not granted the groups' write scope, so it refuses them and the drill fails
 * with the sandbox's answer.
 */
describe('sandbox drills', () => {
  let certDir: string;
  const sims: RunningSimulator[] = [];
  let ctx: TestApp;
  let admin: TestClient;
  let operator: TestClient;
  let backupId: string;
  let sourceId: string;
  let sandboxId: string;
  let refusingId: string;
  let domain: string;

  const auth = (client: TestClient) => ({ Authorization: `Bearer ${client.token}` });
  /** Starts a drill and polls it until it is over; returns the drill. */
  const drill = async (body: Json): Promise<Json> => {
    const started = await ctx.http.post(`/api/backup/${backupId}/verify`).set(auth(admin)).send(body);
    expect(started.status).toBe(202);
    const deadline = Date.now() + 180_000;
    for (;;) {
      const polled = await ctx.http.get(started.body.poll as string).set(auth(admin));
      expect(polled.status).toBe(200);
      const found = polled.body.drill as Json;
      if (found.status === 'completed' || found.status === 'failed') return found;
      if (Date.now() > deadline) throw new Error(`drill still ${String(found.status)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };

  /** A simulated org with an API service integration granted `scopes`, as a connection of the team. */
  const org = async (
    options: Json,
    scopes: readonly string[],
  ): Promise<{ sim: RunningSimulator; id: string }> => {
    const sim = await startSimulator({ ...options, certDir });
    sims.push(sim);
    const integration = await installApiServiceIntegration(sim, scopes);
    rememberSecrets(integration.clientSecret);
    return { sim, id: await createConnection(ctx, admin.token, { baseUrl: sim.baseUrl, ...integration }) };
  };

  beforeAll(async () => {
    certDir = await mkdtemp(join(tmpdir(), 'sandbox-drill-'));
    // The CA is made by the first simulator and shared by the others, so the service trusts all.
    const first = await startSimulator({ users: 12, groups: 3, apps: 2, seed: 9, certDir });
    sims.push(first);
    ctx = await startTestApp({ PROVIDER_ALLOWED_HOSTS: '127.0.0.1', PROVIDER_CA_FILE: first.caCertPath });
    admin = await ctx.newClient({ role: 'admin' });
    operator = await ctx.newClient({ role: 'operator', teamId: admin.teamId });
    const integration = await installApiServiceIntegration(first, RESTORE_SCOPES);
    rememberSecrets(integration.clientSecret);
    sourceId = await createConnection(ctx, admin.token, { baseUrl: first.baseUrl, ...integration });
    backupId = (await runBackup(ctx, admin.token, { connectionId: sourceId })).id;
    domain = (first.snapshot().user[0].data.profile as { login: string }).login.split('@')[1];
    sandboxId = (await org({ users: 0, groups: 0, apps: 0, seed: 91 }, RESTORE_SCOPES)).id;
    refusingId = (
      await org(
        { users: 0, groups: 0, apps: 0, seed: 92 },
        RESTORE_SCOPES.filter((scope) => scope !== 'okta.groups.manage'),
      )
    ).id;
  });

  afterAll(async () => {
    await ctx?.close();
    for (const sim of sims) await sim.close();
    await rm(certDir, { recursive: true, force: true });
  });

  it('restores the backup into the sandbox, backs it up and passes: nothing missing modulo the mapping', async () => {
    const mapping = { domains: [{ from: domain, to: 'drill.example.org' }] };
    const done = await drill({ targetConnectionId: sandboxId, mapping });
    expect(done).toMatchObject({ status: 'completed', outcome: 'passed', target_connection_id: sandboxId });
    const sandbox = done.sandbox as {
      passed: boolean;
      sandboxBackupId: string;
      restored: Record<string, number>;
      types: Array<Record<string, number | string>>;
      notWritable: string[];
    };
    expect(sandbox.passed).toBe(true);
    expect(sandbox.restored.failed).toBe(0);
    expect(sandbox.restored.create).toBeGreaterThan(0);
    const missing = sandbox.types.filter(
      (type) => Number(type.missing) > 0 && !sandbox.notWritable.includes(String(type.resourceType)),
    );
    expect(missing).toEqual([]);
    const users = sandbox.types.find((type) => type.resourceType === 'user')!;
    expect(users).toMatchObject({ missing: 0 });
    // The evidence: the sandbox's backup, whose users carry the mapped domain.
    const evidence = await ctx.http.get(`/api/backup/${sandbox.sandboxBackupId}`).set(auth(admin));
    expect(evidence.body.backup).toMatchObject({ status: 'completed', connection_id: sandboxId });
    expect(sims[1].snapshot().user.map((user) => (user.data.profile as { login: string }).login)).toEqual(
      expect.arrayContaining([expect.stringMatching(/@drill\.example\.org$/)]),
    );
  });

  it("fails when the sandbox refuses a type, with the sandbox's answer in the result", async () => {
    const done = await drill({ targetConnectionId: refusingId });
    expect(done).toMatchObject({ status: 'failed', outcome: 'failed' });
    // The sandbox's authorization server refuses the groups' write scope: no write is made.
    expect(String(done.error_message)).toMatch(/^The sandbox refused or failed: .*invalid_scope/);
    expect(String(done.error_message)).toContain('not allowed: okta.groups.manage');
    expect(done.target_connection_id).toBe(refusingId);
  });

  it("runs the schedule's weekly sandbox drill, which passes again into the sandbox restored before", async () => {
    const own = await ctx.http
      .patch(`/api/connections/${sourceId}/schedule`)
      .set(auth(admin))
      .send({ verify_weekly: true, verify_sandbox_connection_id: sourceId });
    expect(own.status).toBe(400);
    expect(own.body.details).toMatchObject({ code: 'sandbox_is_source' });
    const patched = await ctx.http
      .patch(`/api/connections/${sourceId}/schedule`)
      .set(auth(admin))
      .send({ verify_weekly: true, verify_sandbox_connection_id: sandboxId });
    expect(patched.status).toBe(200);
    expect(patched.body.schedule).toMatchObject({
      verify_weekly: true,
      verify_sandbox_connection_id: sandboxId,
    });

    expect(await ctx.app.get(WeeklyVerificationJob).enqueue(new Date())).not.toBeNull();
    const deadline = Date.now() + 60_000;
    let started: Json | undefined;
    while (!started && Date.now() < deadline) {
      const events = await ctx.http
        .get('/api/audit-events')
        .query({ action: 'drill.started', limit: 100 })
        .set(auth(admin));
      started = (events.body.events as Json[]).find((event) => (event.actor as Json).type === 'schedule');
      if (!started) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(started?.details).toMatchObject({ target_connection_id: sandboxId });
    const drillId = String((started!.target as Json).id);
    let done: Json = {};
    while (Date.now() < deadline + 120_000) {
      done = (await ctx.http.get(`/api/restore-drills/${drillId}`).set(auth(admin))).body.drill as Json;
      if (done.status === 'completed' || done.status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(done).toMatchObject({
      status: 'completed',
      triggered_by: 'schedule',
      target_connection_id: sandboxId,
    });
    expect((done.sandbox as { passed: boolean; restored: Json }).passed).toBe(true);
  });

  it('refuses the backup’s own connection as a sandbox, and an operator without the restore permission', async () => {
    const own = await ctx.http
      .post(`/api/backup/${backupId}/verify`)
      .set(auth(admin))
      .send({ targetConnectionId: sourceId });
    expect(own.status).toBe(400);
    expect(own.body.details).toMatchObject({ code: 'sandbox_is_source' });
    const operatorDrill = await ctx.http
      .post(`/api/backup/${backupId}/verify`)
      .set(auth(operator))
      .send({ targetConnectionId: sandboxId });
    expect(operatorDrill.status).toBe(403);
  });
});
