import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import pg from 'pg';
import { createConnection, runBackup } from './support/backup-helpers.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

const WEEK_SECONDS = 7 * 24 * 3600;
// Quotes, backslashes and astral characters the JSON bundle must escape; a name's control
// characters never reach it (a tab is a space, other controls are dropped on input: plainName).
const TRICKY_NAME = 'Acme "prod" \\ C:\\okta\ttab, é 𝄞 \u0001 end';
const STORED_NAME = 'Acme "prod" \\ C:\\okta tab, é 𝄞  end';

type Bundle = Record<string, unknown> & {
  format_version: number;
  generated_at: string;
  team_id: string;
  counts: Record<string, number>;
  team: { id: string; name: string };
};

/**
 * GET /api/account/export (docs/account.md, spec "Account data rights" and "Limits"): every row of the
 * team, secrets redacted, one successful export per 7 days; an abandoned one does not count.
 */
describe('GET /api/account/export (HTTP, real PostgreSQL, simulator over HTTPS)', () => {
  let org: TestOrg;
  let ctx: TestApp;
  let admin: TestClient;
  let viewer: TestClient;
  let outsider: TestClient;
  let connectionId: string;
  let outsiderConnectionId: string;
  let backupId: string;

  beforeAll(async () => {
    org = await startTestOrg({ users: 4, groups: 2, apps: 1, seed: 27 });
    ctx = await startTestApp(org.env);
    admin = await ctx.newClient({ role: 'admin' });
    viewer = await ctx.newClient({ role: 'viewer', teamId: admin.teamId });
    outsider = await ctx.newClient({ role: 'super_admin' });
    connectionId = await createConnection(ctx, admin.token, { baseUrl: org.sim.baseUrl, ...org.integration });
    outsiderConnectionId = await createConnection(ctx, outsider.token, {
      baseUrl: org.sim.baseUrl,
      ...org.integration,
    });
    await ctx.http
      .post('/api/team/invitations')
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ email: 'new.member@example.com', role: 'auditor' })
      .expect(201);
    // Text that JSON escapes and that COPY's text format would escape again: it must come back as is.
    await ctx.http
      .patch(`/api/connections/${connectionId}`)
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ org_name: TRICKY_NAME })
      .expect(200);
    const backup = await runBackup(ctx, admin.token, { connectionId });
    expect(backup.status).toBe('completed');
    backupId = backup.id;
  });

  afterAll(async () => {
    await ctx?.close();
    await org?.sim.close();
  });

  it('refuses a role without `export`', async () => {
    const response = await ctx.http.get('/api/account/export').set('Authorization', `Bearer ${viewer.token}`);
    expect(response.status).toBe(403);
  });

  it('streams every section of the team, secrets redacted, then answers 429 for 7 days', async () => {
    const response = await ctx.http
      .get('/api/account/export')
      .set('Authorization', `Bearer ${admin.token}`)
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => done(null, text));
      });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const text = response.body as string;
    const bundle = JSON.parse(text) as Bundle;

    expect(bundle.format_version).toBe(1);
    expect(Date.parse(bundle.generated_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(bundle.team_id).toBe(admin.teamId);
    expect(bundle.team.id).toBe(admin.teamId);
    for (const [section, count] of Object.entries(bundle.counts)) {
      expect(bundle[section]).toHaveLength(count);
    }
    expect(Object.keys(bundle.counts)).toEqual(
      expect.arrayContaining(['members', 'invitations', 'clients', 'connections', 'schedules', 'backups']),
    );
    expect(bundle.counts).toMatchObject({
      members: 1,
      invitations: 1,
      clients: 2,
      connections: 1,
      backups: 1,
    });
    expect(bundle.counts.audit_events).toBeGreaterThanOrEqual(4);
    expect(bundle.counts.restores).toBe(0);
    expect(bundle.counts.notifications).toBeGreaterThanOrEqual(0);

    const [connection] = bundle.connections as Array<Record<string, unknown>>;
    expect(connection).toMatchObject({
      id: connectionId,
      team_id: admin.teamId,
      org_name: STORED_NAME,
      credentials: '[redacted]',
    });
    expect(connection).not.toHaveProperty('credentials_enc');
    expect((bundle.backups as Array<{ id: string }>)[0].id).toBe(backupId);
    expect((bundle.members as Array<{ email: string }>)[0].email).toMatch(/^owner-/);
    for (const client of bundle.clients as Array<Record<string, unknown>>) {
      expect(client).not.toHaveProperty('secret_hash');
    }
    // No secret, hash or ciphertext of any kind, and nothing of another team.
    expect(text).not.toContain(org.integration.clientSecret);
    expect(text).not.toContain(admin.clientSecret);
    expect(text).not.toMatch(/"[a-z_]*(_enc|_hash)"/);
    expect(text).not.toContain(outsider.teamId);
    expect(text).not.toContain(outsiderConnectionId);

    const again = await ctx.http.get('/api/account/export').set('Authorization', `Bearer ${admin.token}`);
    expect(again.status).toBe(429);
    expect(again.body).toMatchObject({ code: 'export_rate_limited', error: expect.any(String) });
    const retryAfter = Number(again.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(WEEK_SECONDS - 120);
    expect(retryAfter).toBeLessThanOrEqual(WEEK_SECONDS);

    // Another team's limit is its own.
    const other = await ctx.http.get('/api/account/export').set('Authorization', `Bearer ${outsider.token}`);
    expect(other.status).toBe(200);

    const trail = await ctx.http
      .get('/api/audit-events')
      .query({ action: 'account.exported' })
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(200);
    expect(trail.body.events).toHaveLength(1);
    expect(trail.body.events[0]).toMatchObject({
      actor: { type: 'client', id: admin.ownerUserId, client_id: admin.clientId },
      target: { type: 'team', id: admin.teamId },
      outcome: 'success',
      details: { counts: bundle.counts },
    });
  });

  it('does not count an export the client abandoned mid-way', async () => {
    const team = await ctx.newClient({ role: 'auditor' });
    // Enough rows that the body cannot fit in the socket buffers before the client hangs up.
    const db = new pg.Client({ connectionString: ctx.databaseUrl });
    await db.connect();
    try {
      await db.query(
        `INSERT INTO audit_events (team_id, actor_type, action, target_type, target_id, outcome, details)
         SELECT $1, 'system', 'backup.completed', 'backup', gen_random_uuid()::text, 'success',
                jsonb_build_object('note', repeat('x', 200), 'n', n)
         FROM generate_series(1, 20000) n`,
        [team.teamId],
      );
    } finally {
      await db.end();
    }

    await new Promise<void>((resolve, reject) => {
      const request = http.get(`${ctx.baseUrl}/api/account/export`, {
        headers: { Authorization: `Bearer ${team.token}` },
      });
      request.on('response', (response) => {
        expect(response.statusCode).toBe(200);
        response.once('data', () => {
          request.destroy();
          resolve();
        });
      });
      request.on('error', (error) => (request.destroyed ? resolve() : reject(error)));
    });

    // The abandoned export rolls back and frees the team's lock; until then a request is told to wait a minute.
    let response;
    for (let attempt = 0; attempt < 50; attempt++) {
      response = await ctx.http.get('/api/account/export').set('Authorization', `Bearer ${team.token}`);
      if (response.status !== 429) break;
      expect(Number(response.headers['retry-after'])).toBeLessThanOrEqual(60);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(response?.status).toBe(200);
    expect((response?.body as Bundle).counts.audit_events).toBe(20000);
  });
});
