import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SimulatorClient } from '@libs/okta-simulator/testing/simulator-client.js';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import { createConnection, runBackup } from './support/backup-helpers.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

type Json = Record<string, unknown>;
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
    ctx = await startTestApp(org.env);
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
});
