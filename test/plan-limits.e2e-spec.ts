import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { runCli } from '@tools/cli/cli-runner.js';
import { loadConfig } from '@app/platform/config/app-config.js';
import { BackupsService } from '@app/backups/backups.service.js';
import { SchedulesService } from '@app/schedules/schedules.service.js';
import { createConnection, runBackup } from './support/backup-helpers.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

/**
 * Plan limits (spec "Errors" 402; figures in docs/plans.md): on the free plan each
 * limited action answers 402 `plan_limit_exceeded` `{ error, code, limit, plan }` before doing
 * anything; a trial past its end refuses them; `cli team:plan` lifts them.
 */
describe('plan limits: 402 plan_limit_exceeded (HTTP, real PostgreSQL, simulator over HTTPS)', () => {
  let org: TestOrg;
  let ctx: TestApp;
  let db: pg.Client;
  let owner: TestClient;
  let connectionId: string;

  const bearer = (client: TestClient) => ({ Authorization: `Bearer ${client.token}` });
  const expect402 = (response: { status: number; body: unknown }, limit: string, plan = 'free') => {
    expect(response.status).toBe(402);
    expect(response.body).toMatchObject({
      error: expect.any(String),
      code: 'plan_limit_exceeded',
      limit,
      plan,
    });
  };
  const cli = async (...argv: string[]): Promise<{ code: number; stdout: string[] }> => {
    const stdout: string[] = [];
    const config = loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: ctx.databaseUrl,
      DATA_DIR: ctx.dataDir,
      MASTER_KEY: ctx.config.MASTER_KEY!,
      LOG_LEVEL: 'error',
    });
    const code = await runCli(argv, config, { stdout: (line) => stdout.push(line), stderr: () => {} });
    return { code, stdout };
  };

  beforeAll(async () => {
    org = await startTestOrg({ users: 4, groups: 2, apps: 1, seed: 27 });
    ctx = await startTestApp({ ...org.env, DEFAULT_PLAN: 'free' });
    db = new pg.Client({ connectionString: ctx.databaseUrl });
    await db.connect();
    owner = await ctx.newClient({ role: 'super_admin' });
    connectionId = await createConnection(ctx, owner.token, { baseUrl: org.sim.baseUrl, ...org.integration });
  });

  afterAll(async () => {
    await db?.end();
    await ctx?.close();
    await org?.sim.close();
  });

  const connections = () => db.query('SELECT id FROM connections WHERE team_id = $1', [owner.teamId]);

  it('allows one connection', async () => {
    const second = await ctx.http.post('/api/connections/create').set(bearer(owner)).send({
      org_url: org.sim.baseUrl,
      client_id: org.integration.clientId,
      client_secret: org.integration.clientSecret,
    });
    expect402(second, 'connections');
    expect((await connections()).rows).toHaveLength(1);
  });

  it('allows 3 manual backups a day', async () => {
    for (let run = 0; run < 3; run++) {
      expect((await runBackup(ctx, owner.token, { connectionId })).status).toBe('completed');
    }
    expect402(
      await ctx.http.post('/api/backup/run').set(bearer(owner)).send({ connectionId }),
      'backups_per_day',
    );
    const { rows } = await db.query('SELECT count(*)::int AS n FROM backups WHERE team_id = $1', [
      owner.teamId,
    ]);
    expect(rows[0].n).toBe(3);
  });

  it('allows daily, weekly and monthly schedules, not hourly', async () => {
    const path = `/api/connections/${connectionId}/schedule`;
    const before = await ctx.http.get(path).set(bearer(owner)).expect(200);
    expect402(
      await ctx.http.patch(path).set(bearer(owner)).send({ frequency: 'hourly' }),
      'schedule_frequencies',
    );
    expect((await ctx.http.get(path).set(bearer(owner)).expect(200)).body).toEqual(before.body);
    await ctx.http.patch(path).set(bearer(owner)).send({ frequency: 'daily', enabled: true }).expect(200);
  });

  it('checks SOC 2 only', async () => {
    expect402(
      await ctx.http
        .post('/api/compliance/check')
        .set(bearer(owner))
        .send({ connectionId, framework: 'hipaa' }),
      'compliance_frameworks',
    );
    await ctx.http
      .post('/api/compliance/check')
      .set(bearer(owner))
      .send({ connectionId, framework: 'soc2' })
      .expect(200);
  });

  it('refuses the compliance PDF report of a framework the plan lacks, as the check does (402 before rendering)', async () => {
    const report = (body: Record<string, string>) =>
      ctx.http
        .post('/api/export/report')
        .set(bearer(owner))
        .send({ type: 'compliance', ...body });
    expect402(await report({ framework: 'hipaa', connectionId }), 'compliance_frameworks');
    // Every connection at once: the same check, not a way round it.
    expect402(await report({ framework: 'pci_dss' }), 'compliance_frameworks');
    const { rows } = await db.query(
      `SELECT framework FROM compliance_results WHERE team_id = $1 AND framework <> 'soc2'`,
      [owner.teamId],
    );
    expect(rows).toEqual([]);
  });

  it('gives a scheduled slot of a frequency the plan no longer allows no backup, and records it missed', async () => {
    // As if saved on a plan that allowed hourly (a trial), before the move to free.
    // A whole second: the slot is claimed by its exact time, which a JavaScript Date holds to the millisecond.
    const saved = await db.query(
      `UPDATE schedules SET frequency = 'hourly', enabled = true,
         next_run_at = date_trunc('second', now()) - interval '1 minute'
        WHERE connection_id = $1`,
      [connectionId],
    );
    expect(saved.rowCount).toBe(1);
    const backups = ctx.app.get(BackupsService);
    const started = await ctx.app
      .get(SchedulesService)
      .enqueueDue(new Date(), (teamId, id) => backups.startScheduled(teamId, id));
    expect(started).toEqual([]);
    const scheduled = await db.query(
      `SELECT id FROM backups WHERE team_id = $1 AND triggered_by = 'schedule'`,
      [owner.teamId],
    );
    expect(scheduled.rows).toEqual([]);
    const missed = await db.query(
      `SELECT details FROM audit_events WHERE team_id = $1 AND action = 'schedule.missed'`,
      [owner.teamId],
    );
    expect(missed.rows.map((row) => row.details.reason)).toEqual([
      'the plan does not allow it (schedule_frequencies)',
    ]);
    await db.query(`UPDATE schedules SET frequency = 'daily' WHERE connection_id = $1`, [connectionId]);
  });

  it('allows one export a month', async () => {
    await ctx.http.get('/api/account/export').set(bearer(owner)).expect(200);
    expect402(await ctx.http.get('/api/account/export').set(bearer(owner)), 'exports_per_month');
  });

  it('allows 3 members, open invitations included', async () => {
    for (const email of ['a@example.com', 'b@example.com']) {
      await ctx.http
        .post('/api/team/invitations')
        .set(bearer(owner))
        .send({ email, role: 'viewer' })
        .expect(201);
    }
    expect402(
      await ctx.http
        .post('/api/team/invitations')
        .set(bearer(owner))
        .send({ email: 'c@example.com', role: 'viewer' }),
      'members',
    );
    const { rows } = await db.query('SELECT email FROM team_invitations WHERE team_id = $1 ORDER BY email', [
      owner.teamId,
    ]);
    expect(rows.map((r) => r.email)).toEqual(['a@example.com', 'b@example.com']);
  });

  it('refuses limited actions once a trial has ended, and team:plan changes the plan', async () => {
    const trial = await ctx.newClient({ role: 'super_admin' });
    expect(await cli('team:plan', '--team', trial.teamId, '--plan', 'trial')).toMatchObject({ code: 0 });
    await ctx.http
      .post('/api/team/invitations')
      .set(bearer(trial))
      .send({ email: 'd@example.com', role: 'viewer' })
      .expect(201);
    await db.query(`UPDATE teams SET plan_since = now() - interval '15 days' WHERE id = $1`, [trial.teamId]);
    expect402(
      await ctx.http
        .post('/api/team/invitations')
        .set(bearer(trial))
        .send({ email: 'e@example.com', role: 'viewer' }),
      'trial_ended',
      'trial',
    );

    const run = await cli('team:plan', '--team', trial.teamId, '--plan', 'team');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout[0])).toEqual({ team_id: trial.teamId, plan: 'team' });
    await ctx.http
      .post('/api/team/invitations')
      .set(bearer(trial))
      .send({ email: 'e@example.com', role: 'viewer' })
      .expect(201);
    expect((await cli('team:plan', '--team', trial.teamId, '--plan', 'gold')).code).toBe(2);
  });
});
