import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import type { Job } from '@app/platform/jobs/job-payloads.js';
import { ScoreHistoryJob } from '@app/scores/score-history.job.js';
import { createConnection, runBackup } from './support/backup-helpers.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

interface Point {
  at: string;
  resilience: number;
  readiness: number;
}

const DAY_MS = 86_400_000;

/**
 * Resilience and readiness over time (docs/scores.md "History"): a reading after each completed
 * backup, the daily job's reading of every connection (once per UTC day however often it runs) and its
 * deletion of readings past the plan's retention, and GET /api/scores/history answering them.
 */
describe('GET /api/scores/history and the score-history job (HTTP, real PostgreSQL, simulator over HTTPS)', () => {
  let org: TestOrg;
  let ctx: TestApp;
  let db: pg.Client;
  let admin: TestClient;
  let viewer: TestClient;
  let connectionId: string;
  let otherConnectionId: string;

  const get = (path: string, client = viewer) =>
    ctx.http.get(path).set('Authorization', `Bearer ${client.token}`);
  const history = (query: string, client = viewer) => get(`/api/scores/history?${query}`, client);
  /** Polls the connection's history until it holds at least `count` points (the reading job runs after the backup). */
  const pointsWhen = async (count: number): Promise<Point[]> => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const response = await history(`connectionId=${connectionId}`);
      expect(response.status).toBe(200);
      const points = response.body.points as Point[];
      if (points.length >= count) return points;
      if (Date.now() > deadline) throw new Error(`history never reached ${count}: ${JSON.stringify(points)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  /** Daily readings per connection of the team for the UTC day of `now`. */
  const dailyReadings = async (now: Date): Promise<Record<string, number>> => {
    const { rows } = await db.query<{ connection_id: string; n: number }>(
      `SELECT connection_id, count(*)::int AS n FROM score_readings
        WHERE team_id = $1 AND cause = 'daily' AND day = $2::date GROUP BY connection_id`,
      [admin.teamId, now.toISOString().slice(0, 10)],
    );
    return Object.fromEntries(rows.map((r) => [r.connection_id, r.n]));
  };

  beforeAll(async () => {
    org = await startTestOrg({ users: 12, groups: 3, apps: 2, seed: 31 });
    ctx = await startTestApp({ ...org.env, DEFAULT_PLAN: 'team' });
    db = new pg.Client({ connectionString: ctx.databaseUrl });
    await db.connect();
    admin = await ctx.newClient({ role: 'admin' });
    viewer = await ctx.newClient({ role: 'viewer', teamId: admin.teamId });
    connectionId = await createConnection(ctx, admin.token, { baseUrl: org.sim.baseUrl, ...org.integration });
    otherConnectionId = await createConnection(ctx, admin.token, {
      baseUrl: org.sim.baseUrl,
      ...org.integration,
    });
    for (let i = 0; i < 2; i++) {
      expect((await runBackup(ctx, admin.token, { connectionId })).status).toBe('completed');
    }
  });

  afterAll(async () => {
    await db?.end();
    await ctx?.close();
    await org?.sim.close();
  });

  it('reads both scores after each completed backup and answers them oldest first', async () => {
    const points = await pointsWhen(2);

    expect(points).toHaveLength(2);
    const times = points.map((p) => Date.parse(p.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    for (const p of points) {
      expect(p.resilience).toBeGreaterThanOrEqual(0);
      expect(p.resilience).toBeLessThanOrEqual(100);
      expect(p.readiness).toBeLessThanOrEqual(p.resilience);
    }
    // The last reading was taken after the second backup: what the current scores say (nothing changed since).
    const current = await get(`/api/scores/resilience?connectionId=${connectionId}`);
    const readiness = await get('/api/scores/readiness');
    const entry = (readiness.body.perConnection as Array<{ connectionId: string; score: number }>).find(
      (e) => e.connectionId === connectionId,
    )!;
    expect(points.at(-1)).toMatchObject({ resilience: current.body.score, readiness: entry.score });
    // The connection without a backup got no reading from the other's backups.
    expect((await history(`connectionId=${otherConnectionId}`)).body).toEqual({ points: [] });
  });

  it('answers the last `days` days (30 by default), 400 in the problem shape out of 1..365, 404 for another team', async () => {
    const old = new Date(Date.now() - 40 * DAY_MS);
    await db.query(
      `INSERT INTO score_readings (team_id, connection_id, at, day, cause, resilience, readiness)
       VALUES ($1, $2, $3, $4::date, 'daily', 11, 7)`,
      [admin.teamId, connectionId, old, old.toISOString().slice(0, 10)],
    );

    const recent = (await history(`connectionId=${connectionId}`)).body.points as Point[];
    const wider = (await history(`connectionId=${connectionId}&days=45`)).body.points as Point[];
    expect(wider).toEqual([{ at: old.toISOString(), resilience: 11, readiness: 7 }, ...recent]);
    expect((await history(`connectionId=${connectionId}&days=1`)).body.points).toEqual(recent);

    for (const [query, field] of [
      [`connectionId=${connectionId}&days=0`, 'days'],
      [`connectionId=${connectionId}&days=366`, 'days'],
      [`connectionId=${connectionId}&days=7.5`, 'days'],
      [`connectionId=${connectionId}&days=week`, 'days'],
      ['connectionId=nope', 'connectionId'],
      ['days=30', 'connectionId'],
    ]) {
      const response = await history(query);
      expect({ query, status: response.status }).toEqual({ query, status: 400 });
      expect(response.body).toMatchObject({ code: 'validation_failed', error: expect.any(String) });
      const fields = (response.body.details as Array<{ field: string }>).map((d) => d.field);
      expect(new Set(fields)).toEqual(new Set([field]));
    }
    const stranger = await ctx.newClient({ role: 'admin' });
    const theirs = await history(`connectionId=${connectionId}`, stranger);
    expect(theirs.status).toBe(404);
    expect(JSON.stringify(theirs.body)).not.toContain('"resilience"');
  });

  it('takes one daily reading per connection per UTC day however often it runs, and deletes readings past retention', async () => {
    const sut = ctx.app.get(ScoreHistoryJob);
    /** Enqueues the daily run reading at `now` and waits until pg-boss completed it. */
    const runJob = async (now: Date): Promise<void> => {
      const id = await sut.enqueue(now);
      expect(id).not.toBeNull();
      const deadline = Date.now() + 60_000;
      for (;;) {
        const { rows } = await db.query<{ state: string }>('SELECT state FROM pgboss.job WHERE id = $1', [
          id,
        ]);
        if (rows[0]?.state === 'completed') return;
        if (rows[0]?.state === 'failed' || Date.now() > deadline) throw new Error(`job ${rows[0]?.state}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    const {
      rows: [plan],
    } = await db.query<{ retention_days: number }>(
      'SELECT p.retention_days FROM teams t JOIN plans p ON p.name = t.plan WHERE t.id = $1',
      [admin.teamId],
    );
    const now = new Date();
    const expired = new Date(now.getTime() - (plan.retention_days + 1) * DAY_MS);
    const kept = new Date(now.getTime() - (plan.retention_days - 2) * DAY_MS);
    for (const at of [expired, kept]) {
      await db.query(
        `INSERT INTO score_readings (team_id, connection_id, at, day, cause, resilience, readiness)
         VALUES ($1, $2, $3, $4::date, 'backup', 50, 50)`,
        [admin.teamId, otherConnectionId, at, at.toISOString().slice(0, 10)],
      );
    }

    await runJob(now);
    expect(await dailyReadings(now)).toEqual({ [connectionId]: 1, [otherConnectionId]: 1 });
    // The same day's run again (a second replica's, a retry after a crash) stores nothing new.
    await runJob(new Date(now.getTime() + 1000));
    await sut.daily({ data: { now: now.toISOString() } } as Job<'score-history'>);
    expect(await dailyReadings(now)).toEqual({ [connectionId]: 1, [otherConnectionId]: 1 });

    const tomorrow = new Date(now.getTime() + DAY_MS);
    await runJob(tomorrow);
    expect(await dailyReadings(tomorrow)).toEqual({ [connectionId]: 1, [otherConnectionId]: 1 });

    const { rows } = await db.query<{ at: Date }>(
      `SELECT at FROM score_readings WHERE connection_id = $1 AND cause = 'backup' ORDER BY at`,
      [otherConnectionId],
    );
    expect(rows.map((r) => r.at.toISOString())).toEqual([kept.toISOString()]);
    const points = (await history(`connectionId=${otherConnectionId}&days=365`)).body.points as Point[];
    expect(points.map((p) => p.at)).toEqual([kept.toISOString(), now.toISOString(), tomorrow.toISOString()]);
  });
});
