import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import pg from 'pg';
import type { ObjectStore } from '@libs/object-store/object-store.js';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import { AuditRepository } from '@app/audit/audit.repository.js';
import { MAX_ACTIVITY_EVENTS } from '@app/export/reports.service.js';
import { OBJECT_STORE } from '@app/platform/storage/storage.module.js';
import { createConnection, runBackup } from './support/backup-helpers.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';
import { CHROMIUM, describeWithTools } from './support/tools.js';

/** The text of a PDF, as poppler's pdftotext reads it. */
function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'heavy-work-'));
  try {
    writeFileSync(join(dir, 'r.pdf'), pdf);
    return execFileSync('pdftotext', [join(dir, 'r.pdf'), '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The path and query of a signed URL, to call it on the test server. */
const pathOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

/**
 * Bounds on heavy or costly work (docs/security.md "Plans, request edge, heavy work"): one drill
 * per backup at a time, reports in the audit trail, the activity report's remainder counted by the
 * database, downloads no cache keeps, and a readiness probe that does not touch the object store
 * on every call.
 */
describe('heavy work: drills, reports, downloads and /readyz', () => {
  let org: TestOrg;
  let ctx: TestApp;
  let db: pg.Client;
  let admin: TestClient;
  let connectionId: string;
  let backup: BackupDto;

  const bearer = (client: TestClient) => ({ Authorization: `Bearer ${client.token}` });

  beforeAll(async () => {
    org = await startTestOrg({ users: 6, groups: 2, apps: 1, seed: 45 });
    ctx = await startTestApp({ ...org.env, CHROMIUM_PATH: CHROMIUM });
    db = new pg.Client({ connectionString: ctx.databaseUrl });
    await db.connect();
    admin = await ctx.newClient({ role: 'admin' });
    connectionId = await createConnection(ctx, admin.token, { baseUrl: org.sim.baseUrl, ...org.integration });
    backup = await runBackup(ctx, admin.token, { connectionId });
  });

  afterAll(async () => {
    await db?.end();
    await ctx?.close();
    await org?.sim.close();
  });

  it('answers the drill already pending or running for a backup instead of starting another', async () => {
    const verify = () => ctx.http.post(`/api/backup/${backup.id}/verify`).set(bearer(admin));
    const answers = await Promise.all(Array.from({ length: 6 }, verify));
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(202));
    const ids = new Set(answers.map((answer) => answer.body.drillId as string));
    expect(ids.size).toBe(1);
    const { rows } = await db.query('SELECT id FROM restore_drills WHERE backup_id = $1', [backup.id]);
    expect(rows.map((row) => row.id)).toEqual([...ids]);
    const started = await db.query(
      `SELECT count(*)::int AS n FROM audit_events WHERE action = 'drill.started' AND target_id = $1`,
      [[...ids][0]],
    );
    expect(started.rows[0].n).toBe(1);
  });

  it('probes the object store once for many /readyz calls within a few seconds', async () => {
    const store = ctx.app.get<ObjectStore>(OBJECT_STORE);
    const put = jest.spyOn(store, 'put');
    try {
      const concurrent = await Promise.all(Array.from({ length: 10 }, () => ctx.http.get('/readyz')));
      for (let call = 0; call < 10; call++) concurrent.push(await ctx.http.get('/readyz'));
      expect(concurrent.map((response) => response.status)).toEqual(Array(20).fill(200));
      expect(concurrent[19].body).toMatchObject({ status: 'ready', checks: { object_store: 'ok' } });
      const probes = put.mock.calls.filter(([key]) => key.startsWith('probes/readyz/'));
      expect(probes.length).toBeLessThanOrEqual(1);
    } finally {
      put.mockRestore();
    }
  });

  describeWithTools('chromium', 'pdftotext')('reports (real Chromium)', () => {
    const report = (body: Record<string, unknown>) =>
      ctx.http.post('/api/export/report').set(bearer(admin)).send(body);
    const download = (url: string) =>
      ctx.http
        .get(pathOf(url))
        .buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => done(null, Buffer.concat(chunks)));
        });

    it('records each report in the audit trail as export.report, and no cache may keep its PDF', async () => {
      const made = await report({ type: 'backup', backupId: backup.id });
      expect(made.status).toBe(200);
      const reportId = new URL(made.body.url as string).pathname.split('/').at(-1)!;
      const { rows } = await db.query(
        `SELECT actor_client_id, target_type, target_id, details FROM audit_events
          WHERE team_id = $1 AND action = 'export.report'`,
        [admin.teamId],
      );
      expect(rows).toEqual([
        {
          actor_client_id: admin.clientId,
          target_type: 'report',
          target_id: reportId,
          details: { type: 'backup', backup_id: backup.id },
        },
      ]);
      const pdf = await download(made.body.url as string);
      expect(pdf.status).toBe(200);
      expect(pdf.headers['cache-control']).toBe('no-store, private');
    });

    it(`reads at most ${MAX_ACTIVITY_EVENTS} events into an activity report and counts the rest in one query`, async () => {
      const from = new Date(Date.UTC(2020, 0, 1));
      const extra = 3_037;
      await db.query(
        `INSERT INTO audit_events (team_id, occurred_at, actor_type, action, target_type, outcome)
         SELECT $1, $2::timestamptz + n * interval '1 second', 'system', 'probe.seeded', 'team', 'success'
           FROM generate_series(1, $3::int) AS n`,
        [admin.teamId, from.toISOString(), MAX_ACTIVITY_EVENTS + extra],
      );
      // Counted, not replaced: each call still reaches the database.
      const events = ctx.app.get(AuditRepository);
      const list = jest.spyOn(events, 'list');
      const count = jest.spyOn(events, 'count');
      let made;
      try {
        made = await report({
          type: 'activity',
          from: from.toISOString(),
          to: new Date(Date.UTC(2020, 0, 2)).toISOString(),
        });
        expect(made.status).toBe(200);
        // Pages of at most 500 up to the 2,000 listed, then one count for the 3,037 past them.
        expect(list.mock.calls.length).toBeLessThanOrEqual(Math.ceil(MAX_ACTIVITY_EVENTS / 500) + 1);
        expect(count.mock.calls.length).toBe(1);
      } finally {
        list.mockRestore();
        count.mockRestore();
      }
      const text = pdfText((await download(made.body.url as string)).body as Buffer);
      expect(text).toContain(`${extra} more events after these`);
      const { rows } = await db.query(
        `SELECT details FROM audit_events WHERE team_id = $1 AND action = 'export.report' ORDER BY occurred_at DESC LIMIT 1`,
        [admin.teamId],
      );
      expect(rows[0].details).toEqual({
        type: 'activity',
        from: from.toISOString(),
        to: '2020-01-02T00:00:00.000Z',
      });
    });
  });

  it('serves the audit pack with no-store, private', async () => {
    const pack = await ctx.http
      .post('/api/export/audit-pack')
      .set(bearer(admin))
      .send({ from: new Date(Date.now() - 3600_000).toISOString(), to: new Date().toISOString() })
      .buffer(true)
      .parse((res, done) => {
        res.on('data', () => undefined);
        res.on('end', () => done(null, null));
      });
    expect(pack.status).toBe(200);
    expect(pack.headers['cache-control']).toBe('no-store, private');
  });
});
