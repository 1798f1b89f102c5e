import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import { providerDescriptor } from '@libs/providers/registry.js';
import { createConnection, runBackup } from './support/backup-helpers.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

type Json = Record<string, unknown>;
interface Change {
  resourceType: string;
  action: string;
  resource: { id: string; name: string | null; changes?: Json[] };
  severity: string;
  rule: string;
}

/**
 * Diff and timeline over real backups: an org is backed up, changed through its Okta API (a
 * profile edit, a deleted group, a new group, a weakened password policy, a deleted sign-on
 * rule, an edit that only bumps timestamps), and backed up again.
 */
describe('diff and resource timeline (HTTP, real PostgreSQL, simulator over HTTPS)', () => {
  let org: TestOrg;
  let okta: SimulatorClient;
  let ctx: TestApp;
  let viewer: TestClient;
  let connectionId: string;
  let before: BackupDto;
  let after: BackupDto;
  let unchanged: BackupDto;
  let editedUser: { id: string; data: Json };
  let quietUser: { id: string; data: Json };
  let deletedGroup: { id: string };
  let passwordPolicy: { id: string; data: Json };
  let signOnRule: { id: string; data: Json };
  let createdGroupId: string;

  const diff = async (body: Json, client = viewer) =>
    ctx.http.post('/api/diff').set('Authorization', `Bearer ${client.token}`).send(body);
  /** The attribution of the profile edit, made with the org admin's API token. */
  const editedByAdmin = {
    changedBy: expect.objectContaining({ type: 'user', ipAddress: expect.any(String) }),
    changedAt: expect.any(String),
    eventType: 'user.account.update_profile',
    byThisService: false,
    attribution: 'recorded',
  };
  const find = (changes: Change[], type: string, id: string) =>
    changes.find((change) => change.resourceType === type && change.resource.id === id);

  beforeAll(async () => {
    org = await startTestOrg({ users: 40, groups: 6, apps: 3, seed: 21 });
    okta = new SimulatorClient(org.sim);
    ctx = await startTestApp(org.env);
    const admin = await ctx.newClient({ role: 'admin' });
    viewer = await ctx.newClient({ role: 'viewer', teamId: admin.teamId });
    connectionId = await createConnection(ctx, admin.token, { baseUrl: org.sim.baseUrl, ...org.integration });
    before = await runBackup(ctx, admin.token, { connectionId });

    const state = org.sim.snapshot();
    const activeUsers = state.user.filter((user) => user.data.status === 'ACTIVE');
    [editedUser, quietUser] = activeUsers;
    deletedGroup = state.group.find((group) => (group.data as Json).type === 'OKTA_GROUP') as { id: string };
    passwordPolicy = state.policy.find((policy) => policy.data.type === 'PASSWORD') as typeof passwordPolicy;
    signOnRule = state.policy_rule.find(
      (rule) => rule.data.type === 'SIGN_ON' && !rule.data.system,
    ) as typeof signOnRule;
    expect([editedUser, quietUser, deletedGroup, passwordPolicy, signOnRule].every(Boolean)).toBe(true);
    expect((editedUser.data.profile as Json).title).toEqual(expect.any(String));

    const profile = editedUser.data.profile as Json;
    const calls = [
      await okta.call('POST', `/api/v1/users/${editedUser.id}`, {
        json: { profile: { ...profile, title: 'Chief Restorer' } },
      }),
      await okta.call('POST', `/api/v1/users/${quietUser.id}`, { json: { profile: quietUser.data.profile } }),
      await okta.call('DELETE', `/api/v1/groups/${deletedGroup.id}`),
      await okta.call('PUT', `/api/v1/policies/${passwordPolicy.id}`, {
        json: weakened(passwordPolicy.data),
      }),
      await okta.call('DELETE', `/api/v1/policies/${signOnRule.id.replace(':', '/rules/')}`),
    ];
    const created = await okta.call('POST', '/api/v1/groups', {
      json: { profile: { name: 'Incident responders', description: 'Added between backups' } },
    });
    expect([...calls, created].map((call) => call.status)).toEqual([200, 200, 204, 200, 204, 200]);
    createdGroupId = (created.body as { id: string }).id;

    after = await runBackup(ctx, admin.token, { connectionId });
    unchanged = await runBackup(ctx, admin.token, { connectionId });
    expect([before.status, after.status, unchanged.status]).toEqual(['completed', 'completed', 'completed']);
  });

  afterAll(async () => {
    await ctx?.close();
    await okta?.agent.close();
    await org?.sim.close();
  });

  it('lists each change with its action, record name, JSON Patch with old values, and severity', async () => {
    const response = await diff({ fromBackupId: before.id, toBackupId: after.id });

    expect(response.status).toBe(200);
    const changes = response.body.changes as Change[];
    expect(find(changes, 'user', editedUser.id)).toEqual({
      resourceType: 'user',
      action: 'modified',
      resource: {
        id: editedUser.id,
        name: expect.any(String),
        changes: [
          { op: 'test', path: '/profile/title', value: (editedUser.data.profile as Json).title },
          { op: 'replace', path: '/profile/title', value: 'Chief Restorer' },
        ],
      },
      severity: 'low',
      rule: 'user-changed',
      // Who changed it: the org's admin, whose API token made the edit (docs/diff.md "Who changed it").
      ...editedByAdmin,
    });
    expect(find(changes, 'group', deletedGroup.id)).toMatchObject({ action: 'removed', severity: 'medium' });
    expect(find(changes, 'group', createdGroupId)).toMatchObject({
      action: 'added',
      resource: { name: 'Incident responders' },
      severity: 'medium',
    });
    expect(find(changes, 'policy', passwordPolicy.id)).toMatchObject({
      action: 'modified',
      severity: 'critical',
      rule: 'password-policy-weakened',
    });
    expect(find(changes, 'policy_rule', signOnRule.id)).toMatchObject({
      action: 'removed',
      severity: 'critical',
      rule: 'sign-on-rule-removed',
    });
    const memberships = changes.filter((change) => change.resourceType === 'group_membership');
    expect(memberships.every((change) => change.resource.id.startsWith(`${deletedGroup.id}:`))).toBe(true);
  });

  it('never reports a change made of volatile fields alone', async () => {
    const changes = (await diff({ fromBackupId: before.id, toBackupId: after.id })).body.changes as Change[];

    expect(find(changes, 'user', quietUser.id)).toBeUndefined();
    expect(changes.filter((change) => change.resourceType === 'user')).toHaveLength(1);
  });

  it('summarizes by action, type and severity, with both backups and whether they share a connection', async () => {
    const { changes, summary } = (await diff({ fromBackupId: before.id, toBackupId: after.id })).body;

    expect(summary).toMatchObject({
      from: { backupId: before.id, connectionId },
      to: { backupId: after.id, connectionId },
      sameConnection: true,
      total: changes.length,
      notCompared: [],
    });
    const count = (predicate: (change: Change) => boolean) => (changes as Change[]).filter(predicate).length;
    expect(summary.byAction).toEqual({
      added: count((change) => change.action === 'added'),
      modified: count((change) => change.action === 'modified'),
      removed: count((change) => change.action === 'removed'),
    });
    expect(summary.bySeverity.critical).toBe(count((change) => change.severity === 'critical'));
    expect(summary.byType.group).toEqual({ added: 1, modified: 0, removed: 1 });
  });

  it('answers the same on GET with the query string, and filters by resource type or category', async () => {
    const post = await diff({ fromBackupId: before.id, toBackupId: after.id, resourceTypes: ['groups'] });
    const get = await ctx.http
      .get('/api/diff')
      .query({
        fromBackupId: before.id,
        toBackupId: after.id,
        resourceTypes: providerDescriptor('okta')!.categories.groups.join(','),
      })
      .set('Authorization', `Bearer ${viewer.token}`);

    expect(get.status).toBe(200);
    expect(get.body).toEqual(post.body);
    const types = new Set((post.body.changes as Change[]).map((change) => change.resourceType));
    expect(types).toContain('group');
    expect(types).toContain('group_membership');
    expect([...types].every((type) => providerDescriptor('okta')!.categories.groups.includes(type))).toBe(
      true,
    );
  });

  it('finds nothing between two backups of an unchanged org', async () => {
    const response = await diff({ fromBackupId: after.id, toBackupId: unchanged.id });

    expect(response.status).toBe(200);
    expect(response.body.changes).toEqual([]);
    expect(response.body.summary.total).toBe(0);
  });

  it('compares backups of two connections, and says so', async () => {
    const admin = await ctx.newClient({ role: 'admin', teamId: viewer.teamId });
    const preview = await createConnection(ctx, admin.token, {
      baseUrl: org.sim.baseUrl,
      ...org.integration,
    });
    const other = await runBackup(ctx, admin.token, { connectionId: preview });

    const response = await diff({ fromBackupId: unchanged.id, toBackupId: other.id });

    expect(response.status).toBe(200);
    expect(response.body.summary.sameConnection).toBe(false);
    expect(response.body.changes).toEqual([]);
  });

  it('refuses bad input with the error shape: unknown type, missing id, another team, unknown backup', async () => {
    const unknownType = await diff({
      fromBackupId: before.id,
      toBackupId: after.id,
      resourceTypes: ['gadget'],
    });
    expect(unknownType.status).toBe(400);
    expect(unknownType.body).toMatchObject({
      code: 'validation_failed',
      error: expect.stringContaining('gadget'),
    });
    expect(unknownType.body.details[0]).toMatchObject({
      field: 'resourceTypes',
      valid: expect.arrayContaining(['user']),
    });

    const missing = await diff({ fromBackupId: before.id });
    expect(missing.status).toBe(400);

    const stranger = await ctx.newClient({ role: 'super_admin' });
    const crossTeam = await diff({ fromBackupId: before.id, toBackupId: after.id }, stranger);
    expect(crossTeam.status).toBe(404);
    expect(crossTeam.body.code).toBe('not_found');

    const unknown = await diff({
      fromBackupId: before.id,
      toBackupId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).toBe(404);
  });

  describe('GET /api/resource-timeline', () => {
    const timeline = (query: Json, client = viewer) =>
      ctx.http.get('/api/resource-timeline').query(query).set('Authorization', `Bearer ${client.token}`);

    it("gives a modified user's history: first seen, then the edit as a JSON Patch", async () => {
      const response = await timeline({ connectionId, resourceType: 'user', resourceId: editedUser.id });

      expect(response.status).toBe(200);
      expect(response.body.events).toEqual([
        {
          backupId: before.id,
          timestamp: before.started_at,
          change: 'created',
          diff: expect.arrayContaining([{ op: 'add', path: '/profile', value: expect.any(Object) }]),
          // The first backup of a connection reads no log: there was no earlier one to compare with.
          changedBy: null,
          changedAt: null,
          attribution: 'no_record',
        },
        {
          backupId: after.id,
          timestamp: after.started_at,
          change: 'modified',
          diff: expect.arrayContaining([{ op: 'replace', path: '/profile/title', value: 'Chief Restorer' }]),
          ...editedByAdmin,
        },
      ]);
    });

    it('marks a deleted group deleted, and a user with only volatile changes never modified', async () => {
      const group = await timeline({ connectionId, resourceType: 'group', resourceId: deletedGroup.id });
      const quiet = await timeline({ connectionId, resourceType: 'user', resourceId: quietUser.id });

      expect((group.body.events as Json[]).map((event) => [event.backupId, event.change])).toEqual([
        [before.id, 'created'],
        [after.id, 'deleted'],
      ]);
      expect((quiet.body.events as Json[]).map((event) => event.change)).toEqual(['created']);
    });

    it('walks only the last `limit` backups, and gives an empty list for an unknown resource', async () => {
      const last = await timeline({
        connectionId,
        resourceType: 'user',
        resourceId: editedUser.id,
        limit: 2,
      });
      const unknown = await timeline({ connectionId, resourceType: 'group', resourceId: '00gnothere' });

      expect((last.body.events as Json[]).map((event) => [event.backupId, event.change])).toEqual([
        [after.id, 'created'],
      ]);
      expect(unknown.status).toBe(200);
      expect(unknown.body).toEqual({ events: [] });
    });

    it("refuses bad input, and hides another team's connection", async () => {
      const tooMany = await timeline({ connectionId, resourceType: 'user', resourceId: 'x', limit: 101 });
      const badType = await timeline({ connectionId, resourceType: 'User Accounts', resourceId: 'x' });
      const stranger = await ctx.newClient({ role: 'super_admin' });
      const crossTeam = await timeline(
        { connectionId, resourceType: 'user', resourceId: editedUser.id },
        stranger,
      );

      expect([tooMany.status, badType.status, crossTeam.status]).toEqual([400, 400, 404]);
      expect(tooMany.body.code).toBe('validation_failed');
    });
  });
});

/** The policy with a shorter minimum password length and unlimited lockout attempts. */
function weakened(policy: Json): Json {
  const settings = structuredClone(policy.settings) as { password: { complexity: Json; lockout: Json } };
  settings.password.complexity.minLength = 8;
  settings.password.lockout.maxAttempts = 0;
  const { _links: _ignored, ...rest } = policy;
  return { ...rest, settings };
}
