import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import { createConnection, runBackup } from './support/backup-helpers.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

type Json = Record<string, unknown>;
/** RESTORE_PREVIEW_SYNC_MAX_RECORDS of this suite's app: the seeded org's backup holds more. */
const ASYNC_ABOVE = 50;
interface Row {
  resourceType: string;
  create: number;
  update: number;
  skip: number;
  pruneCandidates: number;
  notes: string[];
}

/** GET /api/restore: the dry run compares a backup with the live org and never writes to it. */
describe('restore preview (HTTP, real PostgreSQL, simulator over HTTPS)', () => {
  let org: TestOrg;
  let okta: SimulatorClient;
  let ctx: TestApp;
  let admin: TestClient;
  let backup: BackupDto;
  let deletedGroup: { id: string };
  let members: number;
  let newGroupId: string;

  const preview = (query: Json, client = admin) =>
    ctx.http.get('/api/restore').query(query).set('Authorization', `Bearer ${client.token}`);
  const row = (rows: Row[], type: string) => rows.find((candidate) => candidate.resourceType === type);

  beforeAll(async () => {
    org = await startTestOrg({ users: 60, groups: 6, apps: 3, seed: 41 });
    okta = new SimulatorClient(org.sim);
    // Below the backup's record count, so `Prefer: respond-async` queues the preview as a job.
    ctx = await startTestApp({ ...org.env, RESTORE_PREVIEW_SYNC_MAX_RECORDS: String(ASYNC_ABOVE) });
    admin = await ctx.newClient({ role: 'admin' });
    const connectionId = await createConnection(ctx, admin.token, {
      baseUrl: org.sim.baseUrl,
      ...org.integration,
    });
    backup = await runBackup(ctx, admin.token, { connectionId });

    const state = org.sim.snapshot();
    deletedGroup = state.group.find((group) => group.data.type === 'OKTA_GROUP') as { id: string };
    members = state.group_membership.filter((membership) =>
      membership.id.startsWith(`${deletedGroup.id}:`),
    ).length;
    const edited = state.user.find((user) => user.data.status === 'ACTIVE') as { id: string };
    const answers = [
      await okta.call('DELETE', `/api/v1/groups/${deletedGroup.id}`),
      await okta.call('POST', `/api/v1/users/${edited.id}`, {
        json: { profile: { title: 'Edited after the backup' } },
      }),
    ];
    const created = await okta.call('POST', '/api/v1/groups', {
      json: { profile: { name: 'Not in the backup' } },
    });
    expect([...answers, created].map((answer) => answer.status)).toEqual([204, 200, 200]);
    newGroupId = (created.body as { id: string }).id;
  });

  afterAll(async () => {
    await ctx?.close();
    await okta?.agent.close();
    await org?.sim.close();
  });

  it('counts, per type, what a restore would create, update and leave alone, and what only the live org has', async () => {
    const response = await preview({ backupId: backup.id });

    expect(response.status).toBe(200);
    const rows = response.body.preview as Row[];
    expect(row(rows, 'group')).toEqual({
      resourceType: 'group',
      create: 1,
      update: 0,
      skip: backup.resource_counts.group - 1,
      pruneCandidates: 1,
      // Okta has no deleted items a restore brings objects back from
      restoreFromDeleted: 0,
      notes: [],
    });
    expect(row(rows, 'group_membership')).toMatchObject({ create: members, update: 0 });
    expect(row(rows, 'user')).toMatchObject({
      resourceType: 'user',
      create: 0,
      update: 1,
      skip: backup.resource_counts.user - 1,
      pruneCandidates: 0,
    });
    expect(row(rows, 'user')?.notes.join(' ')).toMatch(/without a password/);
    expect(row(rows, 'policy')).toMatchObject({ create: 0, update: 0, pruneCandidates: 0 });
    expect(response.body.prune).toEqual([
      { resourceType: 'group', id: newGroupId, name: 'Not in the backup', severity: 'medium' },
    ]);
    expect(response.body.sourceOrgUrl).toBe(org.sim.baseUrl);
    expect(Number.isNaN(Date.parse(response.body.collectedAt))).toBe(false);
  });

  it('lists what cannot be restored as it was, from what the provider never returns', async () => {
    const response = await preview({ backupId: backup.id, resourceTypes: 'users' });

    expect(response.body.preview.map((entry: Row) => entry.resourceType)).toEqual(['user']);
    expect(response.body.notRestorable).toEqual([
      {
        resourceType: 'user',
        items: expect.arrayContaining([expect.stringMatching(/password/)]),
        why: expect.any(String),
      },
    ]);
  });

  it('never writes to the org: only reads (and the token request) reach it', async () => {
    const before = org.sim.requestLog().byEndpoint;
    await preview({ backupId: backup.id });
    const after = org.sim.requestLog().byEndpoint;

    const called = Object.keys(after).filter((endpoint) => after[endpoint] !== before[endpoint]);
    expect(called.length).toBeGreaterThan(0);
    expect(called.filter((endpoint) => !endpoint.startsWith('GET ') && !endpoint.includes('/token'))).toEqual(
      [],
    );
  });

  it('needs the restore permission, hides other teams, and refuses unknown types', async () => {
    const viewer = await ctx.newClient({ role: 'viewer', teamId: admin.teamId });
    const stranger = await ctx.newClient({ role: 'super_admin' });

    const [forbidden, crossTeam, unknownType] = await Promise.all([
      preview({ backupId: backup.id }, viewer),
      preview({ backupId: backup.id }, stranger),
      preview({ backupId: backup.id, resourceTypes: 'gadget' }),
    ]);

    expect([forbidden.status, crossTeam.status, unknownType.status]).toEqual([403, 404, 400]);
    expect(unknownType.body.details[0]).toMatchObject({ field: 'resourceTypes' });
  });

  describe('as a job, for a client that prefers to poll (RFC 7240 respond-async)', () => {
    const poll = async (location: string, client = admin): Promise<Json> => {
      for (let attempt = 0; attempt < 100; attempt++) {
        const response = await ctx.http.get(location).set('Authorization', `Bearer ${client.token}`);
        expect(response.status).toBe(200);
        if (response.body.status === 'completed' || response.body.status === 'failed')
          return response.body as Json;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`${location} did not end`);
    };

    it('answers 202 with where to poll, and the polled result is the preview a synchronous answer gives', async () => {
      expect(Object.values(backup.resource_counts).reduce((sum, count) => sum + count, 0)).toBeGreaterThan(
        ASYNC_ABOVE,
      );
      const queued = await preview({ backupId: backup.id, resourceTypes: 'users,groups' }).set(
        'Prefer',
        'respond-async, wait=5',
      );

      expect(queued.status).toBe(202);
      expect(queued.body).toEqual({ previewId: expect.any(String), status: 'pending' });
      expect(queued.headers.location).toBe(`/api/restore/previews/${queued.body.previewId}`);
      expect(queued.headers['preference-applied']).toBe('respond-async');
      expect(queued.headers.vary).toMatch(/prefer/i);

      const run = await poll(queued.headers.location);
      const now = await preview({ backupId: backup.id, resourceTypes: 'users,groups' });
      expect(now.status).toBe(200);
      expect(now.headers.vary).toMatch(/prefer/i);
      expect(run).toMatchObject({
        id: queued.body.previewId,
        backup_id: backup.id,
        status: 'completed',
        progress_pct: 100,
        error_message: null,
        resource_types: expect.arrayContaining(['user', 'group']),
      });
      const result = run.result as Json;
      expect(result.preview).toEqual(now.body.preview);
      expect(result.prune).toEqual(now.body.prune);
      expect(result.notRestorable).toEqual(now.body.notRestorable);
      expect(row(result.preview as Row[], 'group')).toMatchObject({ create: 1, pruneCandidates: 1 });

      const audit = await ctx.http
        .get('/api/audit-events')
        .query({ action: 'restore.previewed' })
        .set('Authorization', `Bearer ${admin.token}`);
      expect(audit.status).toBe(200);
      expect(JSON.stringify(audit.body)).toContain(queued.body.previewId);
    });

    it("queues an undo's dry run the same way: the polled undo_result is the undo preview a synchronous answer gives", async () => {
      const undo = (query: Json) =>
        ctx.http.get('/api/restore/undo').query(query).set('Authorization', `Bearer ${admin.token}`);
      const queued = await undo({ backupId: backup.id }).set('Prefer', 'respond-async');
      expect(queued.status).toBe(202);
      expect(queued.body).toEqual({ previewId: expect.any(String), status: 'pending' });
      expect(queued.headers.location).toBe(`/api/restore/previews/${queued.body.previewId}`);
      expect(queued.headers['preference-applied']).toBe('respond-async');
      expect(queued.headers.vary).toMatch(/prefer/i);

      const run = await poll(queued.headers.location);
      const now = await undo({ backupId: backup.id });
      expect(now.status).toBe(200);
      expect(now.headers.vary).toMatch(/prefer/i);
      expect(run).toMatchObject({ id: queued.body.previewId, backup_id: backup.id, status: 'completed' });
      const result = run.undo_result as Json;
      expect(result.changes).toEqual(now.body.changes);
      expect(result.totals).toEqual(now.body.totals);
      expect(result.changes).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ action: 'recreate', resourceType: 'group', id: deletedGroup.id }),
          expect.objectContaining({ action: 'delete', resourceType: 'group', id: newGroupId }),
        ]),
      );

      // Refused before anything is queued.
      const backwards = await undo({
        backupId: backup.id,
        since: '2026-01-02T00:00:00Z',
        until: '2026-01-01T00:00:00Z',
      }).set('Prefer', 'respond-async');
      expect(backwards.status).toBe(400);
      expect(backwards.body.details).toEqual([expect.objectContaining({ field: 'since' })]);
    });

    it('queues the POST dry run the same way, and answers small backups at once whatever the preference', async () => {
      const posted = await ctx.http
        .post('/api/restore')
        .set('Authorization', `Bearer ${admin.token}`)
        .set('Prefer', 'respond-async')
        .send({ backupId: backup.id, resourceTypes: ['groups'] });
      expect(posted.status).toBe(202);
      expect((await poll(posted.headers.location)).status).toBe('completed');

      const small = await startTestApp({ ...org.env, RESTORE_PREVIEW_SYNC_MAX_RECORDS: '1000000' });
      try {
        const smallAdmin = await small.newClient({ role: 'admin' });
        const connectionId = await createConnection(small, smallAdmin.token, {
          baseUrl: org.sim.baseUrl,
          ...org.integration,
        });
        const smallBackup = await runBackup(small, smallAdmin.token, { connectionId });
        const answer = await small.http
          .get('/api/restore')
          .query({ backupId: smallBackup.id, resourceTypes: 'groups' })
          .set('Authorization', `Bearer ${smallAdmin.token}`)
          .set('Prefer', 'respond-async');
        expect(answer.status).toBe(200);
        expect(answer.headers['preference-applied']).toBeUndefined();
        expect(row(answer.body.preview as Row[], 'group')).toBeDefined();
      } finally {
        await small.close();
      }
    });

    it("hides another team's preview, and needs the restore permission to read one", async () => {
      const queued = await preview({ backupId: backup.id, resourceTypes: 'groups' }).set(
        'Prefer',
        'respond-async',
      );
      expect(queued.status).toBe(202);
      const viewer = await ctx.newClient({ role: 'viewer', teamId: admin.teamId });
      const stranger = await ctx.newClient({ role: 'super_admin' });
      const read = (client: TestClient, path = queued.headers.location) =>
        ctx.http.get(path).set('Authorization', `Bearer ${client.token}`);

      const [crossTeam, forbidden, missing, malformed] = await Promise.all([
        read(stranger),
        read(viewer),
        read(admin, '/api/restore/previews/00000000-0000-4000-8000-000000000000'),
        read(admin, '/api/restore/previews/not-a-uuid'),
      ]);
      expect([crossTeam.status, forbidden.status, missing.status, malformed.status]).toEqual([
        404, 403, 404, 400,
      ]);
      expect({ ...crossTeam.body, requestId: null }).toEqual({ ...missing.body, requestId: null });
      await poll(queued.headers.location);
    });
  });
});
