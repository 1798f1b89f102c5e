import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import { createConnection, runBackup } from './support/backup-helpers.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

type Json = Record<string, unknown>;

/** Below the backup's record count, so `Prefer: respond-async` queues a check as a job. */
const ASYNC_ABOVE = 10;

/**
 * A compliance check of a large backup as a job (docs/decisions.md "A compliance check stays in
 * the request by default"): `Prefer: respond-async` (RFC 7240) gets 202 and a run to poll, whose
 * result is the report the request would have answered; without the header the spec's 200 stays.
 */
describe('POST /api/compliance/check with Prefer: respond-async (HTTP, real PostgreSQL, simulator over HTTPS)', () => {
  let org: TestOrg;
  let ctx: TestApp;
  let admin: TestClient;
  let auditor: TestClient;
  let connectionId: string;
  let backup: BackupDto;

  const check = (body: Json, client = auditor) =>
    ctx.http.post('/api/compliance/check').set('Authorization', `Bearer ${client.token}`).send(body);
  const poll = async (location: string, client = auditor): Promise<Json> => {
    for (let attempt = 0; attempt < 300; attempt++) {
      const response = await ctx.http.get(location).set('Authorization', `Bearer ${client.token}`);
      expect(response.status).toBe(200);
      if (response.body.status === 'completed' || response.body.status === 'failed')
        return response.body as Json;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${location} did not end`);
  };

  beforeAll(async () => {
    org = await startTestOrg({ users: 24, groups: 4, apps: 3, seed: 26 });
    ctx = await startTestApp({ ...org.env, COMPLIANCE_CHECK_SYNC_MAX_RECORDS: String(ASYNC_ABOVE) });
    admin = await ctx.newClient({ role: 'admin' });
    auditor = await ctx.newClient({ role: 'auditor', teamId: admin.teamId });
    connectionId = await createConnection(ctx, admin.token, { baseUrl: org.sim.baseUrl, ...org.integration });
    backup = await runBackup(ctx, admin.token, { connectionId });
  });

  afterAll(async () => {
    await ctx?.close();
    await org?.sim.close();
  });

  it('answers 202 with where to poll, and the polled result is the report the request then serves as stored', async () => {
    expect(Object.values(backup.resource_counts).reduce((sum, count) => sum + count, 0)).toBeGreaterThan(
      ASYNC_ABOVE,
    );
    const queued = await check({ connectionId, framework: 'soc2' }).set('Prefer', 'respond-async, wait=5');

    expect(queued.status).toBe(202);
    expect(queued.body).toEqual({ checkId: expect.any(String), status: 'pending' });
    expect(queued.headers.location).toBe(`/api/compliance/checks/${queued.body.checkId}`);
    expect(queued.headers['preference-applied']).toBe('respond-async');
    expect(queued.headers.vary).toMatch(/prefer/i);

    const run = await poll(queued.headers.location);
    expect(run).toMatchObject({
      id: queued.body.checkId,
      connection_id: connectionId,
      backup_id: backup.id,
      framework: 'soc2',
      status: 'completed',
      progress_pct: 100,
      error_message: null,
    });
    const result = run.result as Json;
    expect(result.findings).toEqual(
      expect.arrayContaining([expect.objectContaining({ control: expect.any(String) })]),
    );

    // The result is stored: the same check asked again, preference or not, is answered at once with it.
    const again = await check({ connectionId, framework: 'soc2' }).set('Prefer', 'respond-async');
    expect(again.status).toBe(200);
    expect(again.headers['preference-applied']).toBeUndefined();
    expect(again.headers.vary).toMatch(/prefer/i);
    expect(again.body).toEqual(result);

    const audit = await ctx.http
      .get('/api/audit-events')
      .query({ action: 'compliance.checked' })
      .set('Authorization', `Bearer ${admin.token}`);
    expect(audit.status).toBe(200);
    expect(JSON.stringify(audit.body)).toContain(queued.body.checkId);
  });

  it("keeps the spec's 200 for a client that does not ask, whatever the backup's size", async () => {
    const answer = await check({ connectionId, framework: 'pci_dss' });
    expect(answer.status).toBe(200);
    expect(answer.headers['preference-applied']).toBeUndefined();
    expect(answer.body).toMatchObject({
      score: expect.any(Number),
      findings: expect.any(Array),
      generatedAt: expect.any(String),
      backupId: backup.id,
      framework: 'pci_dss',
    });
  });

  it('refuses before queueing what the request refuses', async () => {
    const [unknown, noConnection] = await Promise.all([
      check({ connectionId, framework: 'gdpr' }).set('Prefer', 'respond-async'),
      check({ connectionId: '00000000-0000-4000-8000-000000000000', framework: 'nist' }).set(
        'Prefer',
        'respond-async',
      ),
    ]);
    expect([unknown.status, noConnection.status]).toEqual([400, 404]);
  });

  it("hides another team's check, and needs the compliance permission to read one", async () => {
    const queued = await check({ connectionId, framework: 'hipaa' }).set('Prefer', 'respond-async');
    expect(queued.status).toBe(202);
    const viewer = await ctx.newClient({ role: 'viewer', teamId: admin.teamId });
    const stranger = await ctx.newClient({ role: 'super_admin' });
    const read = (client: TestClient, path = queued.headers.location) =>
      ctx.http.get(path).set('Authorization', `Bearer ${client.token}`);

    const [crossTeam, forbidden, missing, malformed] = await Promise.all([
      read(stranger),
      read(viewer),
      read(admin, '/api/compliance/checks/00000000-0000-4000-8000-000000000000'),
      read(admin, '/api/compliance/checks/not-a-uuid'),
    ]);
    expect([crossTeam.status, forbidden.status, missing.status, malformed.status]).toEqual([
      404, 403, 404, 400,
    ]);
    expect({ ...crossTeam.body, requestId: null }).toEqual({ ...missing.body, requestId: null });
    expect((await poll(queued.headers.location)).status).toBe('completed');
  });
});
