import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { SnapshotRecord } from '@libs/simulators/okta/index.js';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import { OKTA_VOLATILE_FIELDS } from '@libs/providers/okta/okta-volatile-fields.js';
import { contentHash } from '@libs/snapshot/content-hash.js';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import { createConnection, openSnapshot, runBackup } from './support/backup-helpers.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { RESTORE_SCOPES, runRestore, waitForRestore } from './support/restore-helpers.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

type Json = Record<string, unknown>;

/**
 * POST /api/restore and the restores it runs (docs/restore.md, DESIGN section 6): the real app over HTTP,
 * real PostgreSQL, the filesystem store, and a simulated org over HTTPS whose state proves what a
 * restore did. Each case breaks the org the way an admin would, through Okta's API.
 */
describe('restore (HTTP, real PostgreSQL, simulator over HTTPS)', () => {
  let org: TestOrg;
  let okta: SimulatorClient;
  let ctx: TestApp;
  let admin: TestClient;
  let connectionId: string;
  let backup: BackupDto;
  /** A group made for these cases: members, an owner, an app assignment and an ACTIVE rule. */
  let finance: { id: string; name: string; memberIds: string[]; appId: string; ruleId: string };

  const auth = (client = admin) => ({ Authorization: `Bearer ${client.token}` });
  const call = async (method: string, path: string, json?: unknown): Promise<Json> => {
    const response = await okta.call(method, path, json === undefined ? {} : { json });
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${response.text}`);
    return (response.body ?? {}) as Json;
  };
  const live = (type: string): SnapshotRecord[] => org.sim.snapshot()[type as 'group'];
  const liveGroup = (name: string) =>
    live('group').find((group) => (group.data.profile as Json).name === name);
  const membersOf = (groupId: string) =>
    live('group_membership')
      .filter((membership) => membership.id.startsWith(`${groupId}:`))
      .map((membership) => membership.id.split(':')[1])
      .sort();
  /** Every record of the org by type and id, with its content hash (volatile fields left out). */
  const fingerprintOrg = (): Map<string, string> => {
    const all = new Map<string, string>();
    for (const [type, records] of Object.entries(org.sim.snapshot()))
      for (const record of records)
        all.set(`${type} ${record.id}`, contentHash(record.data, OKTA_VOLATILE_FIELDS));
    return all;
  };

  beforeAll(async () => {
    org = await startTestOrg({ users: 40, groups: 6, apps: 3, seed: 23 }, RESTORE_SCOPES);
    okta = new SimulatorClient(org.sim);
    ctx = await startTestApp(org.env);
    admin = await ctx.newClient({ role: 'admin' });
    connectionId = await createConnection(ctx, admin.token, { baseUrl: org.sim.baseUrl, ...org.integration });

    const group = await call('POST', '/api/v1/groups', {
      profile: { name: 'Treasury drill', description: 'Ledgers' },
    });
    const users = live('user').filter((user) => user.data.status === 'ACTIVE');
    const memberIds = users.slice(0, 3).map((user) => user.id);
    for (const userId of memberIds) await call('PUT', `/api/v1/groups/${group.id}/users/${userId}`);
    await call('POST', `/api/v1/groups/${group.id}/owners`, { id: memberIds[0], type: 'USER' });
    const appId = live('app')[0].id;
    await call('PUT', `/api/v1/apps/${appId}/groups/${group.id}`, { priority: 0 });
    const rule = await call('POST', '/api/v1/groups/rules', {
      type: 'group_rule',
      name: 'Finance by department',
      conditions: { expression: { value: 'user.department=="Finance"', type: 'urn:okta:expression:1.0' } },
      actions: { assignUserToGroups: { groupIds: [group.id] } },
    });
    await call('POST', `/api/v1/groups/rules/${rule.id}/lifecycle/activate`);
    finance = {
      id: String(group.id),
      name: 'Treasury drill',
      memberIds: memberIds.sort(),
      appId,
      ruleId: String(rule.id),
    };
    backup = await runBackup(ctx, admin.token, { connectionId });
    expect(backup.status).toBe('completed');
  });

  afterAll(async () => {
    await ctx?.close();
    await okta?.close();
    await org?.sim.close();
  });

  describe('POST /api/restore without mode', () => {
    it('answers the dry-run preview and writes nothing, records no restore', async () => {
      await call('PUT', `/api/v1/groups/${finance.id}`, {
        profile: { name: 'Treasury drill', description: 'Changed' },
      });
      const before = org.sim.requestLog().byEndpoint;

      const response = await ctx.http.post('/api/restore').set(auth()).send({ backupId: backup.id });

      expect(response.status).toBe(200);
      expect(response.body.preview.find((row: Json) => row.resourceType === 'group')).toMatchObject({
        create: 0,
        update: 1,
      });
      const after = org.sim.requestLog().byEndpoint;
      const writes = Object.keys(after).filter(
        (endpoint) =>
          after[endpoint] !== before[endpoint] &&
          !endpoint.startsWith('GET ') &&
          !endpoint.includes('/token'),
      );
      expect(writes).toEqual([]);
      const history = await ctx.http.get('/api/restore/history').set(auth());
      expect(history.body).toEqual({ restores: [], total: 0 });
      await call('PUT', `/api/v1/groups/${finance.id}`, {
        profile: { name: 'Treasury drill', description: 'Ledgers' },
      });
    });
  });

  describe('refusals', () => {
    it.each([
      [{ backupId: 'nope', mode: 'full' }, 'backupId'],
      [{ backupId: '00000000-0000-4000-8000-000000000000', mode: 'everything' }, 'mode'],
      [{ backupId: undefined, mode: 'selective' }, 'backupId'],
      [{ mode: 'selective' } as Json, 'resourceTypes'],
      [{ mode: 'full', resourceTypes: ['group'] } as Json, 'resourceTypes'],
      [{ mode: 'selective', resourceIds: ['00g1'] } as Json, 'resourceTypes'],
      [{ mode: 'selective', resourceTypes: ['group'], resourceIds: ['00g1'], prune: true } as Json, 'prune'],
      [{ mode: 'selective', resourceTypes: ['gadget'] } as Json, 'resourceTypes'],
      [{ mode: 'full', activateUsers: 'yes' } as Json, 'activateUsers'],
    ])('answers 400 naming the field for %j', async (body, field) => {
      const response = await ctx.http
        .post('/api/restore')
        .set(auth())
        .send({ backupId: backup.id, ...body });

      expect(response.status).toBe(400);
      expect(response.body.code).toBe('validation_failed');
      expect(JSON.stringify(response.body.details)).toContain(field);
    });

    it('needs the restore permission, and hides other teams (404)', async () => {
      const operator = await ctx.newClient({ role: 'operator', teamId: admin.teamId });
      const stranger = await ctx.newClient({ role: 'super_admin' });
      const body = { backupId: backup.id, mode: 'full' };

      const [forbidden, crossTeam, unknown, malformed] = await Promise.all([
        ctx.http.post('/api/restore').set(auth(operator)).send(body),
        ctx.http.post('/api/restore').set(auth(stranger)).send(body),
        ctx.http.get('/api/restore/00000000-0000-4000-8000-000000000000').set(auth()),
        ctx.http.get('/api/restore/not-a-uuid').set(auth()),
      ]);

      expect([forbidden.status, crossTeam.status, unknown.status, malformed.status]).toEqual([
        403, 404, 404, 400,
      ]);
    });
  });

  describe('a full restore', () => {
    let deletedUser: SnapshotRecord;
    let editedUser: SnapshotRecord;
    let first: Awaited<ReturnType<typeof runRestore>>;

    beforeAll(async () => {
      const users = live('user').filter((user) => user.data.status === 'ACTIVE');
      deletedUser = users[5];
      editedUser = users[6];
      await call('DELETE', `/api/v1/groups/${finance.id}`);
      await call('DELETE', `/api/v1/users/${deletedUser.id}`);
      await call('DELETE', `/api/v1/users/${deletedUser.id}`);
      await call('POST', `/api/v1/users/${editedUser.id}`, { profile: { title: 'Edited after the backup' } });
      first = await runRestore(ctx, admin.token, { backupId: backup.id, mode: 'full' });
    });

    it('completes, having taken a pre-restore backup of the org as it was before writing', async () => {
      expect(first.restore).toMatchObject({
        status: 'completed',
        mode: 'full',
        backup_id: backup.id,
        error_message: null,
      });
      const pre = await ctx.http.get(`/api/backup/${first.restore.pre_restore_backup_id}`).set(auth());
      expect(pre.body.backup).toMatchObject({ triggered_by: 'pre_restore', status: 'completed' });
      const snapshot = await openSnapshot(ctx, pre.body.backup.storage_key);
      expect(await snapshot.findEntry('group', finance.id)).toBeUndefined();
      expect(await snapshot.findEntry('user', deletedUser.id)).toBeUndefined();
    });

    it('brings back the deleted group under a new id, with its members, owner, rule target and app assignment', () => {
      const group = liveGroup(finance.name)!;
      expect(group.id).not.toBe(finance.id);
      expect(group.data.profile).toEqual({ name: 'Treasury drill', description: 'Ledgers' });
      expect(membersOf(group.id)).toEqual(finance.memberIds);
      expect(live('group_owner').map((owner) => owner.id)).toContain(`${group.id}:${finance.memberIds[0]}`);
      expect(live('app_group_assignment').map((assignment) => assignment.id)).toContain(
        `${finance.appId}:${group.id}`,
      );
      const rule = live('group_rule').find((candidate) => candidate.id === finance.ruleId)!;
      expect(rule.data.status).toBe('ACTIVE');
      expect(JSON.stringify(rule.data.actions)).toContain(group.id);
      const created = first.items.find((item) => item.resourceType === 'group' && item.action === 'create');
      expect(created).toMatchObject({ resourceId: finance.id, outcome: 'ok', newId: group.id });
    });

    it('re-creates the deleted user STAGED with its memberships, and puts back the edited profile', () => {
      const login = (deletedUser.data.profile as Json).login;
      const user = live('user').find((candidate) => (candidate.data.profile as Json).login === login)!;
      expect(user.data.status).toBe('STAGED');
      expect(user.data.profile).toEqual(deletedUser.data.profile);
      const before = org.sim.snapshot();
      const groupsNow = before.group_membership.filter((m) => m.id.endsWith(`:${user.id}`)).length;
      expect(groupsNow).toBeGreaterThan(1);
      const edited = live('user').find((candidate) => candidate.id === editedUser.id)!;
      expect(edited.data.profile).toEqual(editedUser.data.profile);
      const item = first.items.find((candidate) => candidate.resourceId === deletedUser.id)!;
      expect((item.notes as string[]).join(' ')).toMatch(/activateUsers/);
    });

    it('records each write and sums them per type', () => {
      expect(first.items_total).toBe(first.items.length);
      expect(first.items.filter((item) => item.outcome !== 'ok')).toEqual([]);
      expect(first.restore.summary.group).toMatchObject({ create: 1, update: 0, failed: 0 });
      expect(first.restore.summary.user).toMatchObject({ create: 1, update: 1, failed: 0 });
      expect(first.restore.totals.create).toBe(first.items.filter((item) => item.action === 'create').length);
    });

    it('is idempotent: the same restore again writes nothing', async () => {
      const before = fingerprintOrg();

      const second = await runRestore(ctx, admin.token, { backupId: backup.id, mode: 'full' });

      expect(second.restore.status).toBe('completed');
      expect(second.restore.totals).toMatchObject({ create: 0, update: 0, delete: 0, failed: 0 });
      expect(second.items_total).toBe(0);
      const after = fingerprintOrg();
      expect([...after].filter(([key, hash]) => before.get(key) !== hash)).toEqual([]);
    });
  });

  it('a selective restore of one deleted group brings back the group and what hangs off it, and nothing else', async () => {
    const group = liveGroup(finance.name)!;
    const current = await runBackup(ctx, admin.token, { connectionId });
    await call('DELETE', `/api/v1/groups/${group.id}`);
    await call('POST', `/api/v1/groups/rules/${finance.ruleId}/lifecycle/deactivate`);
    await call('DELETE', `/api/v1/groups/rules/${finance.ruleId}`);
    const other = live('group').find((candidate) => candidate.data.type === 'OKTA_GROUP')!;
    await call('PUT', `/api/v1/groups/${other.id}`, { profile: { name: 'Changed, not restored' } });
    const before = fingerprintOrg();

    const restored = await runRestore(ctx, admin.token, {
      backupId: current.id,
      mode: 'selective',
      resourceTypes: ['group'],
      resourceIds: [group.id],
    });

    expect(restored.restore.status).toBe('completed');
    const back = liveGroup(finance.name)!;
    expect(membersOf(back.id)).toEqual(finance.memberIds);
    const rule = live('group_rule').find((candidate) => candidate.name === 'Finance by department')!;
    expect(rule.data.status).toBe('ACTIVE');
    expect(JSON.stringify(rule.data.actions)).toContain(back.id);
    const after = fingerprintOrg();
    const changed = [...after.keys()].filter((key) => before.get(key) !== after.get(key));
    const touched = (key: string) => key.includes(back.id) || key === `group_rule ${rule.id}`;
    expect(changed.filter((key) => !touched(key))).toEqual([]);
    expect(changed.filter(touched).length).toBeGreaterThanOrEqual(1 + finance.memberIds.length + 3);
    expect((liveGroup('Changed, not restored') ?? {}).id).toBe(other.id);
    await call('PUT', `/api/v1/groups/${other.id}`, { profile: other.data.profile });
  });

  it('a selective restore of a deleted scoped admin brings the user back with the role and its target: scoped, not org-wide', async () => {
    const target = live('admin_role_target').find((t) => t.data.roleType === 'HELP_DESK_ADMIN')!;
    const [userId] = target.id.split(':');
    const login = (live('user').find((user) => user.id === userId)!.data.profile as Json).login;
    const current = await runBackup(ctx, admin.token, { connectionId });
    await call('DELETE', `/api/v1/users/${userId}`);
    await call('DELETE', `/api/v1/users/${userId}`);

    const restored = await runRestore(ctx, admin.token, {
      backupId: current.id,
      mode: 'selective',
      resourceTypes: ['user'],
      resourceIds: [userId],
    });

    // The user's own writes (its app assignments among them) are another case's; the admin role's must all land.
    const adminWrites = restored.items.filter((item) => String(item.resourceType).startsWith('admin_role'));
    expect(adminWrites.filter((item) => item.outcome !== 'ok')).toEqual([]);
    const back = live('user').find((user) => (user.data.profile as Json).login === login)!;
    const roles = live('admin_role_assignment').filter((a) => a.id.startsWith(`${back.id}:`));
    expect(roles.map((role) => role.data.type)).toEqual(['HELP_DESK_ADMIN']);
    const targets = live('admin_role_target').filter((t) => t.id.startsWith(`${roles[0].id}:`));
    expect(targets.map((t) => t.data)).toEqual([{ ...target.data }]);
    const granted = restored.items.find((item) => item.resourceType === 'admin_role_assignment')!;
    expect((granted.notes as string[]).join(' ')).toMatch(/whole org until the backup's targets are added/);
    expect(restored.restore.summary.admin_role_target).toMatchObject({ create: 1, failed: 0 });
  });

  it('a selective restore of a deleted OIDC app points the custom app authenticator that names it to the new app', async () => {
    const app = await call('POST', '/api/v1/apps', {
      name: 'oidc_client',
      label: 'Field Push',
      signOnMode: 'OPENID_CONNECT',
      credentials: { oauthClient: { token_endpoint_auth_method: 'none' } },
      settings: {
        oauthClient: {
          redirect_uris: ['com.example.push:/callback'],
          response_types: ['code'],
          grant_types: ['authorization_code', 'refresh_token'],
          application_type: 'native',
        },
      },
    });
    // Okta API "Create an authenticator": a custom_app authenticator names an OIDC native app.
    const authenticator = await call('POST', '/api/v1/authenticators?activate=false', {
      key: 'custom_app',
      name: 'Field Push',
      agreeToTerms: true,
      provider: { type: 'PUSH', configuration: { fcm: { id: 'ppcfcm1' } } },
      settings: { appInstanceId: app.id, userVerification: 'PREFERRED' },
    });
    const current = await runBackup(ctx, admin.token, { connectionId });
    await call('POST', `/api/v1/apps/${app.id}/lifecycle/deactivate`);
    await call('DELETE', `/api/v1/apps/${app.id}`);

    const restored = await runRestore(ctx, admin.token, {
      backupId: current.id,
      mode: 'selective',
      resourceTypes: ['app'],
      resourceIds: [String(app.id)],
    });

    expect(restored.restore.status).toBe('completed');
    const back = live('app').find((candidate) => candidate.data.label === 'Field Push')!;
    expect(back.id).not.toBe(app.id);
    const named = live('authenticator').find((candidate) => candidate.id === authenticator.id)!;
    expect(named.data.settings).toMatchObject({ appInstanceId: back.id });
    expect(restored.restore.summary.authenticator).toMatchObject({ update: 1, failed: 0 });
  });

  it('goes on when one write fails and ends partial, with the failure recorded', async () => {
    const target = live('group').find(
      (candidate) => candidate.data.type === 'OKTA_GROUP' && candidate.id !== finance.id,
    )!;
    const lone = await call('POST', '/api/v1/groups', { profile: { name: 'Short-lived' } });
    const doomedRule = await call('POST', '/api/v1/groups/rules', {
      type: 'group_rule',
      name: 'Rule into a group that will go',
      conditions: { expression: { value: 'user.title=="x"', type: 'urn:okta:expression:1.0' } },
      actions: { assignUserToGroups: { groupIds: [lone.id] } },
    });
    const fineRule = await call('POST', '/api/v1/groups/rules', {
      type: 'group_rule',
      name: 'Rule into a group that stays',
      conditions: { expression: { value: 'user.title=="y"', type: 'urn:okta:expression:1.0' } },
      actions: { assignUserToGroups: { groupIds: [target.id] } },
    });
    const current = await runBackup(ctx, admin.token, { connectionId });
    await call('DELETE', `/api/v1/groups/rules/${doomedRule.id}`);
    await call('DELETE', `/api/v1/groups/rules/${fineRule.id}`);
    await call('DELETE', `/api/v1/groups/${lone.id}`);

    const restored = await runRestore(ctx, admin.token, {
      backupId: current.id,
      mode: 'selective',
      resourceTypes: ['group_rule'],
    });

    expect(restored.restore.status).toBe('partial');
    expect(restored.restore.summary.group_rule).toMatchObject({ create: 1, failed: 1 });
    const failed = restored.items.find((item) => item.outcome === 'failed')!;
    expect(failed).toMatchObject({ resourceType: 'group_rule', resourceId: doomedRule.id, action: 'create' });
    expect(String(failed.error)).toMatch(/groupIds/);
    expect(live('group_rule').map((rule) => rule.name)).toContain('Rule into a group that stays');
    const failedOnly = await ctx.http
      .get(`/api/restore/${restored.restore.id}`)
      .query({ failedOnly: 'true' })
      .set(auth());
    expect(failedOnly.body.items.map((item: Json) => item.resourceId)).toEqual([doomedRule.id]);
  });

  it('removes what the backup lacks only with prune, and says so in the preview', async () => {
    const current = await runBackup(ctx, admin.token, { connectionId });
    const intruder = await call('POST', '/api/v1/groups', { profile: { name: 'Added after the backup' } });

    const preview = await ctx.http
      .get('/api/restore')
      .query({ backupId: current.id, resourceTypes: 'group' })
      .set(auth());
    const kept = await runRestore(ctx, admin.token, {
      backupId: current.id,
      mode: 'selective',
      resourceTypes: ['group'],
    });
    const stillThere = Boolean(liveGroup('Added after the backup'));
    const pruned = await runRestore(ctx, admin.token, {
      backupId: current.id,
      mode: 'selective',
      resourceTypes: ['group'],
      prune: true,
    });

    expect(preview.body.prune).toEqual([
      { resourceType: 'group', id: intruder.id, name: 'Added after the backup', severity: 'medium' },
    ]);
    expect(kept.restore.summary.group).toMatchObject({ delete: 0 });
    expect(stillThere).toBe(true);
    expect(pruned.restore.status).toBe('completed');
    expect(pruned.restore.summary.group).toMatchObject({ delete: 1 });
    expect(pruned.items).toEqual([
      expect.objectContaining({ resourceId: intruder.id, action: 'delete', outcome: 'ok' }),
    ]);
    expect(liveGroup('Added after the backup')).toBeUndefined();
  });

  it('prunes a super admin granted since once the restore has re-created the one the backup holds', async () => {
    const userIds = new Set(live('user').map((user) => user.id));
    const superAdmins = () =>
      live('admin_role_assignment').filter(
        (a) => a.data.type === 'SUPER_ADMIN' && userIds.has(a.id.split(':')[0]),
      );
    const [original] = superAdmins();
    const [ownerId, roleId] = original.id.split(':');
    const current = await runBackup(ctx, admin.token, { connectionId });
    const newcomer = live('user').find(
      (user) =>
        user.data.status === 'ACTIVE' &&
        !live('admin_role_assignment').some((a) => a.id.startsWith(`${user.id}:`)),
    )!;
    await call('POST', `/api/v1/users/${newcomer.id}/roles`, { type: 'SUPER_ADMIN' });
    await call('DELETE', `/api/v1/users/${ownerId}/roles/${roleId}`);

    const restored = await runRestore(ctx, admin.token, {
      backupId: current.id,
      mode: 'selective',
      resourceTypes: ['admin_role_assignment'],
      prune: true,
    });

    // Without the re-created role counted as staying, the newcomer's would be the last super admin.
    expect(restored.restore.summary.admin_role_assignment).toMatchObject({ create: 1, delete: 1, failed: 0 });
    expect(superAdmins().map((a) => a.id.split(':')[0])).toEqual([ownerId]);
  });

  it('sends activation to re-created users with activateUsers', async () => {
    const user = live('user').find((candidate) => candidate.data.status === 'ACTIVE')!;
    const current = await runBackup(ctx, admin.token, { connectionId });
    await call('DELETE', `/api/v1/users/${user.id}`);
    await call('DELETE', `/api/v1/users/${user.id}`);

    const restored = await runRestore(ctx, admin.token, {
      backupId: current.id,
      mode: 'selective',
      resourceTypes: ['users'],
      resourceIds: [user.id],
      activateUsers: true,
    });

    expect(restored.restore).toMatchObject({ status: 'completed', activate_users: true });
    const back = live('user').find(
      (candidate) => (candidate.data.profile as Json).login === (user.data.profile as Json).login,
    )!;
    expect(back.data.status).toBe('PROVISIONED');
  });

  it('runs one restore per connection at a time (409), and lists them newest first', async () => {
    const started = await ctx.http
      .post('/api/restore')
      .set(auth())
      .send({ backupId: backup.id, mode: 'full' });
    const second = await ctx.http
      .post('/api/restore')
      .set(auth())
      .send({ backupId: backup.id, mode: 'full' });
    await waitForRestore(ctx, admin.token, started.body.restoreId);

    expect(started.status).toBe(202);
    expect(started.body).toEqual({ restoreId: expect.any(String), status: 'started' });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('restore_in_progress');
    const history = await ctx.http.get('/api/restore/history').query({ connectionId, limit: 2 }).set(auth());
    expect(history.status).toBe(200);
    expect(history.body.restores[0].id).toBe(started.body.restoreId);
    expect(history.body.total).toBeGreaterThan(5);
    const completed = await ctx.http.get('/api/restore/history').query({ status: 'partial' }).set(auth());
    expect(completed.body.restores.map((restore: Json) => restore.status)).toEqual(['partial']);
  });
});
