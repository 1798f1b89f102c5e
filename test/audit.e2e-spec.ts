import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { createConnection, runBackup } from './support/backup-helpers.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

interface AuditEvent {
  id: string;
  occurred_at: string;
  actor: { type: string; id: string | null; email?: string; client_id?: string };
  action: string;
  target: { type: string; id: string | null };
  outcome: string;
  ip: string | null;
  request_id: string | null;
  details: Record<string, unknown>;
}

/**
 * The audit trail (docs/notifications.md): every mutation and job outcome recorded, read through
 * GET /api/audit-events (permission `export`, keyset pages), and append-only in the database.
 */
describe('GET /api/audit-events (HTTP, real PostgreSQL, simulator over HTTPS)', () => {
  let org: TestOrg;
  let ctx: TestApp;
  let admin: TestClient;
  let auditor: TestClient;
  let viewer: TestClient;
  let outsider: TestClient;
  let connectionId: string;
  let backupId: string;

  const events = async (client: TestClient, query: Record<string, string | number> = {}) => {
    const response = await ctx.http
      .get('/api/audit-events')
      .query(query)
      .set('Authorization', `Bearer ${client.token}`);
    expect(response.status).toBe(200);
    return response.body as { events: AuditEvent[]; nextAfter: string | null };
  };

  beforeAll(async () => {
    org = await startTestOrg({ users: 5, groups: 2, apps: 1, seed: 25 });
    ctx = await startTestApp(org.env);
    admin = await ctx.newClient({ role: 'admin' });
    auditor = await ctx.newClient({ role: 'auditor', teamId: admin.teamId });
    viewer = await ctx.newClient({ role: 'viewer', teamId: admin.teamId });
    outsider = await ctx.newClient({ role: 'super_admin' });
    connectionId = await createConnection(ctx, admin.token, { baseUrl: org.sim.baseUrl, ...org.integration });
    await ctx.http
      .patch(`/api/connections/${connectionId}`)
      .set('Authorization', `Bearer ${admin.token}`)
      .set('X-Request-Id', 'rename-1')
      .send({ org_name: 'Renamed org' })
      .expect(200);
    const backup = await runBackup(ctx, admin.token, { connectionId });
    expect(backup.status).toBe('completed');
    backupId = backup.id;
  });

  afterAll(async () => {
    await ctx?.close();
    await org?.sim.close();
  });

  it('records each mutation and job outcome, newest first, with actor, target and origin', async () => {
    const { events: trail } = await events(auditor);

    expect(trail.map((e) => e.action)).toEqual([
      'backup.completed',
      'backup.started',
      'connection.updated',
      'connection.created',
    ]);
    const [completed, started, updated, created] = trail;
    expect(created).toMatchObject({
      actor: { type: 'client', id: admin.ownerUserId, client_id: admin.clientId },
      target: { type: 'connection', id: connectionId },
      outcome: 'success',
      ip: '127.0.0.1',
      details: { org_url: org.sim.baseUrl, client_id: org.integration.clientId },
    });
    expect(created.actor.email).toMatch(/@example\.com$/);
    expect(updated).toMatchObject({ request_id: 'rename-1', details: { changed: ['org_name'] } });
    expect(started).toMatchObject({
      target: { type: 'backup', id: backupId },
      details: { triggered_by: 'manual' },
    });
    expect(completed).toMatchObject({
      actor: { type: 'system', id: null },
      target: { type: 'backup', id: backupId },
      details: { connection_id: connectionId, previous_backup_id: null },
    });
    expect(JSON.stringify(trail)).not.toContain(org.integration.clientSecret);
  });

  it('pages by keyset: one event a page walks the same trail, and filters narrow it', async () => {
    const { events: all } = await events(auditor);
    const walked: string[] = [];
    let after: string | null = null;
    do {
      const page: { events: AuditEvent[]; nextAfter: string | null } = await events(auditor, {
        limit: 1,
        ...(after ? { after } : {}),
      });
      walked.push(...page.events.map((e) => e.id));
      after = page.nextAfter;
    } while (after);
    expect(walked).toEqual(all.map((e) => e.id));

    expect((await events(auditor, { action: 'backup.started' })).events.map((e) => e.target.id)).toEqual([
      backupId,
    ]);
    expect((await events(auditor, { targetId: connectionId })).events).toHaveLength(2);
    expect((await events(auditor, { actorId: admin.ownerUserId })).events).toHaveLength(3);
    expect((await events(auditor, { from: new Date(Date.now() + 60_000).toISOString() })).events).toEqual([]);
  });

  it('refuses a forged cursor (400) and a viewer (403); another team sees none of it', async () => {
    const forged = await ctx.http
      .get('/api/audit-events')
      .query({ after: 'bm90LWEtY3Vyc29y' })
      .set('Authorization', `Bearer ${auditor.token}`);
    expect(forged.status).toBe(400);
    expect(forged.body.code).toBe('validation_failed');

    const denied = await ctx.http.get('/api/audit-events').set('Authorization', `Bearer ${viewer.token}`);
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('forbidden');

    expect((await events(outsider)).events).toEqual([]);
  });

  it('commits a change only with its audit event: a refused event leaves the connection undeleted', async () => {
    const db = new pg.Client({ connectionString: ctx.databaseUrl });
    await db.connect();
    try {
      // Stands for any failure between the change and its event (a full disk, a crash).
      await db.query(`
        CREATE FUNCTION refuse_connection_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.action = 'connection.deleted' THEN RAISE EXCEPTION 'audit insert refused'; END IF;
          RETURN NEW;
        END $$;
        CREATE TRIGGER refuse_connection_deleted BEFORE INSERT ON audit_events
          FOR EACH ROW EXECUTE FUNCTION refuse_connection_deleted();
      `);
      const deleted = await ctx.http
        .delete(`/api/connections/${connectionId}`)
        .set('Authorization', `Bearer ${admin.token}`);
      expect(deleted.status).toBe(500);
      await ctx.http
        .get(`/api/connections/${connectionId}`)
        .set('Authorization', `Bearer ${admin.token}`)
        .expect(200);
    } finally {
      await db.query('DROP TRIGGER refuse_connection_deleted ON audit_events');
      await db.query('DROP FUNCTION refuse_connection_deleted()');
      await db.end();
    }
    expect((await events(auditor, { action: 'connection.deleted' })).events).toEqual([]);
  });

  it('is append-only in the database: UPDATE and DELETE are refused unless the deletion job allows it', async () => {
    const db = new pg.Client({ connectionString: ctx.databaseUrl });
    await db.connect();
    try {
      await expect(db.query(`UPDATE audit_events SET action = 'backup.deleted'`)).rejects.toThrow(
        /append-only/,
      );
      await expect(db.query('DELETE FROM audit_events')).rejects.toThrow(/append-only/);
      await expect(db.query('TRUNCATE audit_events')).rejects.toThrow(/append-only/);
      await db.query('BEGIN');
      await db.query(`SET LOCAL idp_backup.allow_audit_delete = 'on'`);
      const deleted = await db.query('DELETE FROM audit_events WHERE team_id = $1', [admin.teamId]);
      await db.query('ROLLBACK');
      expect(deleted.rowCount).toBe(4);
    } finally {
      await db.end();
    }
    expect((await events(auditor)).events).toHaveLength(4);
  });
});
