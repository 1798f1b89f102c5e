import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { SnapshotRecord } from '@libs/simulators/okta/index.js';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import { createConnection, runBackup } from './support/backup-helpers.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { RESTORE_SCOPES, type RestoreView, runRestore } from './support/restore-helpers.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

type Json = Record<string, unknown>;
interface Actor {
  id: string;
  displayName: string;
  type: string;
  ipAddress?: string;
  userAgent?: string;
}
interface Attributed {
  changedBy: Actor | null;
  changedAt: string | null;
  attribution: string;
  byThisService?: boolean;
}
type DiffChange = Attributed & {
  resourceType: string;
  action: string;
  resource: { id: string; name: string | null };
};
type UndoChange = Attributed & { resourceType: string; action: string; id: string; name: string | null };

/**
 * Incident recovery on the Okta simulator, over HTTPS to the real app and PostgreSQL
 * (docs/diff.md "Who changed it", docs/restore.md "Undo since a clean backup"). A "compromised"
 * admin, Mallory, writes with her own API token: she grants a user SUPER_ADMIN, weakens the
 * password policy, deletes a group and adds an app; in the same window another admin, Olivia,
 * renames a group and creates one. The System Log names each of them for their writes, as Okta
 * does for an API token (it acts as the admin who created it). The diff names who did what; an undo
 * since the clean backup limited to Mallory reverses exactly her changes, leaves Olivia's, never
 * reverses the service's own writes, and changes nothing when run again; one of Olivia's changes
 * is then reverted alone, from its diff row.
 */
describe('who changed it, undo since a clean backup, revert one change (HTTP, PostgreSQL, simulator over HTTPS)', () => {
  let org: TestOrg;
  let okta: SimulatorClient;
  let ctx: TestApp;
  let admin: TestClient;
  let connectionId: string;
  let clean: BackupDto;
  let compromised: BackupDto;
  let mallory: SnapshotRecord;
  let olivia: SnapshotRecord;
  let victim: SnapshotRecord;
  let policy: SnapshotRecord;
  let deletedGroup: SnapshotRecord;
  let renamedGroup: SnapshotRecord;
  let grantedRoleId: string;
  let addedAppId: string;
  let oliviaGroupId: string;
  /** the undo limited to Mallory */
  let undone: RestoreView;

  const auth = () => ({ Authorization: `Bearer ${admin.token}` });
  const live = (type: string): SnapshotRecord[] => org.sim.snapshot()[type as 'group'];
  /** A write with an admin's own API token (SSWS), from a named client, as that admin makes it. */
  const as = async (token: string, method: string, path: string, json?: unknown): Promise<Json> => {
    const response = await okta.call(method, path, {
      auth: null,
      headers: { authorization: `SSWS ${token}`, 'user-agent': `incident-test/${token.slice(-4)}` },
      ...(json === undefined ? {} : { json }),
    });
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${response.text}`);
    return (response.body ?? {}) as Json;
  };
  const diff = async (query: Json): Promise<DiffChange[]> => {
    const response = await ctx.http.get('/api/diff').set(auth()).query(query);
    expect(response.status).toBe(200);
    return response.body.changes as DiffChange[];
  };
  const diffSummary = async (
    query: Json,
  ): Promise<{ recreated: Array<{ resourceType: string; previousId: string; id: string }> }> => {
    const response = await ctx.http.get('/api/diff').set(auth()).query(query);
    expect(response.status).toBe(200);
    return response.body.summary;
  };
  const undoPreview = async (
    query: Json,
  ): Promise<{ changes: UndoChange[]; total: number; totals: Json }> => {
    const response = await ctx.http.get('/api/restore/undo').set(auth()).query(query);
    expect(response.status).toBe(200);
    return response.body;
  };
  const minLength = (record: SnapshotRecord | undefined) =>
    (((record?.data.settings as Json).password as Json).complexity as Json).minLength as number;

  beforeAll(async () => {
    org = await startTestOrg({ users: 30, groups: 6, apps: 3, seed: 52 }, RESTORE_SCOPES);
    okta = new SimulatorClient(org.sim);
    ctx = await startTestApp(org.env);
    admin = await ctx.newClient({ role: 'admin' });
    connectionId = await createConnection(ctx, admin.token, { baseUrl: org.sim.baseUrl, ...org.integration });

    const state = org.sim.snapshot();
    const admins = new Set(state.admin_role_assignment.map((assignment) => assignment.id.split(':')[0]));
    const active = state.user.filter((user) => user.data.status === 'ACTIVE' && !admins.has(user.id));
    [mallory, olivia, victim] = active;
    policy = state.policy.find((candidate) => candidate.data.type === 'PASSWORD')!;
    const groups = state.group.filter((group) => group.data.type === 'OKTA_GROUP');
    const members = new Set(state.group_membership.map((membership) => membership.id.split(':')[0]));
    deletedGroup = groups.find((group) => members.has(group.id))!;
    renamedGroup = groups.find((group) => group.id !== deletedGroup.id)!;
    clean = await runBackup(ctx, admin.token, { connectionId });
    expect(clean.status).toBe('completed');

    // Mallory, with her own API token.
    const malloryToken = org.sim.createApiToken(mallory.id);
    const role = await as(malloryToken, 'POST', `/api/v1/users/${victim.id}/roles`, { type: 'SUPER_ADMIN' });
    grantedRoleId = `${victim.id}:${String(role.id)}`;
    const { _links: _ignored, ...policyBody } = policy.data;
    const weakened = structuredClone(policyBody) as Json;
    ((((weakened.settings as Json).password as Json).complexity as Json).minLength as number) = 4;
    await as(malloryToken, 'PUT', `/api/v1/policies/${policy.id}`, weakened);
    await as(malloryToken, 'DELETE', `/api/v1/groups/${deletedGroup.id}`);
    const app = await as(malloryToken, 'POST', '/api/v1/apps', {
      name: 'bookmark',
      label: 'Payroll export',
      signOnMode: 'BOOKMARK',
      settings: { app: { requestIntegration: false, url: 'https://exfil.example/payroll' } },
    });
    addedAppId = String(app.id);

    // Olivia, in the same window.
    const oliviaToken = org.sim.createApiToken(olivia.id);
    await as(oliviaToken, 'PUT', `/api/v1/groups/${renamedGroup.id}`, {
      profile: { ...(renamedGroup.data.profile as Json), name: 'Renamed by Olivia' },
    });
    const created = await as(oliviaToken, 'POST', '/api/v1/groups', { profile: { name: 'Olivia team' } });
    oliviaGroupId = String(created.id);

    compromised = await runBackup(ctx, admin.token, { connectionId });
    expect(compromised.status).toBe('completed');
  });

  afterAll(async () => {
    await ctx?.close();
    await okta?.close();
    await org?.sim.close();
  });

  it('names who made each change in the diff, with the client it came from, and filters by actor and window', async () => {
    const changes = await diff({ fromBackupId: clean.id, toBackupId: compromised.id });
    const find = (type: string, id: string) =>
      changes.find((change) => change.resourceType === type && change.resource.id === id);
    const malloryActor = {
      id: mallory.id,
      type: 'user',
      displayName: `${(mallory.data.profile as Json).firstName} ${(mallory.data.profile as Json).lastName}`,
      alternateId: (mallory.data.profile as Json).login,
      userAgent: expect.stringMatching(/^incident-test\//),
      ipAddress: expect.stringMatching(/127\.0\.0\.1/),
    };
    for (const [type, id, action] of [
      ['admin_role_assignment', grantedRoleId, 'added'],
      ['policy', policy.id, 'modified'],
      ['group', deletedGroup.id, 'removed'],
      ['app', addedAppId, 'added'],
    ])
      expect(find(type, id)).toMatchObject({ action, attribution: 'recorded', changedBy: malloryActor });
    expect(find('group', renamedGroup.id)?.changedBy).toMatchObject({ id: olivia.id, type: 'user' });
    expect(find('group', oliviaGroupId)?.changedBy).toMatchObject({ id: olivia.id });
    for (const change of changes.filter((c) => c.attribution === 'recorded'))
      expect(Date.parse(change.changedAt!)).toBeGreaterThanOrEqual(Date.parse(clean.started_at));

    const hers = await diff({ fromBackupId: clean.id, toBackupId: compromised.id, actor: mallory.id });
    expect(
      hers.map((change) => `${change.resourceType} ${change.action} ${change.resource.id}`).sort(),
    ).toEqual(
      [
        `admin_role_assignment added ${grantedRoleId}`,
        `app added ${addedAppId}`,
        `group removed ${deletedGroup.id}`,
        `policy modified ${policy.id}`,
      ].sort(),
    );
    const future = new Date(Date.now() + 3600_000).toISOString();
    expect(await diff({ fromBackupId: clean.id, toBackupId: compromised.id, since: future })).toEqual([]);
    const refused = await ctx.http
      .get('/api/diff')
      .set(auth())
      .query({ fromBackupId: clean.id, toBackupId: compromised.id, since: 'yesterday' });
    expect(refused.status).toBe(400);
  });

  it('shows who changed a resource in its timeline', async () => {
    const response = await ctx.http
      .get('/api/resource-timeline')
      .set(auth())
      .query({ connectionId, resourceType: 'policy', resourceId: policy.id });
    expect(response.status).toBe(200);
    const events = response.body.events as Array<Attributed & { change: string; backupId: string }>;
    expect(events.at(-1)).toMatchObject({
      backupId: compromised.id,
      change: 'modified',
      attribution: 'recorded',
      changedBy: { id: mallory.id },
    });
    const byOlivia = await ctx.http
      .get('/api/resource-timeline')
      .set(auth())
      .query({ connectionId, resourceType: 'policy', resourceId: policy.id, actor: olivia.id });
    expect(byOlivia.body.events).toEqual([]);
  });

  it("previews an undo of one actor's changes since the clean backup, with who made each", async () => {
    const preview = await undoPreview({ backupId: clean.id, actor: mallory.id });
    expect(
      preview.changes.map((change) => `${change.action} ${change.resourceType} ${change.id}`).sort(),
    ).toEqual(
      [
        `delete admin_role_assignment ${grantedRoleId}`,
        `delete app ${addedAppId}`,
        `put_back policy ${policy.id}`,
        `recreate group ${deletedGroup.id}`,
      ].sort(),
    );
    for (const change of preview.changes)
      expect(change.changedBy).toMatchObject({ id: mallory.id, type: 'user' });
    expect(preview.totals).toEqual({ delete: 2, put_back: 1, recreate: 1 });
  });

  it("undoes exactly that actor's changes, leaves the other admin's, and changes nothing when run again", async () => {
    undone = await runRestore(ctx, admin.token, {
      backupId: clean.id,
      mode: 'undo',
      actor: mallory.id,
    });
    expect(undone.restore).toMatchObject({ status: 'completed', mode: 'undo', undo: { actor: mallory.id } });
    expect(undone.restore.pre_restore_backup_id).toEqual(expect.any(String));

    expect(live('admin_role_assignment').map((record) => record.id)).not.toContain(grantedRoleId);
    expect(live('app').map((record) => record.id)).not.toContain(addedAppId);
    expect(minLength(live('policy').find((record) => record.id === policy.id))).toBe(minLength(policy));
    const back = live('group').find(
      (group) => (group.data.profile as Json).name === (deletedGroup.data.profile as Json).name,
    );
    expect(back).toBeDefined();
    expect(live('group_membership').some((membership) => membership.id.startsWith(`${back!.id}:`))).toBe(
      true,
    );
    // Olivia's changes in the same window are left as she made them.
    expect((live('group').find((group) => group.id === renamedGroup.id)!.data.profile as Json).name).toBe(
      'Renamed by Olivia',
    );
    expect(live('group').map((group) => group.id)).toContain(oliviaGroupId);

    const again = await runRestore(ctx, admin.token, { backupId: clean.id, mode: 'undo', actor: mallory.id });
    expect(again.restore.status).toBe('completed');
    expect(again.restore.totals).toMatchObject({ create: 0, update: 0, delete: 0, failed: 0 });
    expect((await undoPreview({ backupId: clean.id, actor: mallory.id })).total).toBe(0);
  });

  it("never reverses this service's own writes, and a backup afterwards shows her objects as the clean backup had them", async () => {
    const window = `since=${encodeURIComponent(clean.started_at)}&until=${encodeURIComponent(new Date().toISOString())}`;
    const byService = encodeURIComponent(`actor.id eq "${org.integration.clientId}"`);
    const serviceEvents = await okta.walk(`/api/v1/logs?${window}&filter=${byService}`);
    expect(serviceEvents.items.length).toBeGreaterThan(0);
    const everyone = await undoPreview({ backupId: clean.id });
    expect(everyone.changes.filter((change) => change.byThisService)).toEqual([]);
    const listed = new Set(everyone.changes.map((change) => change.id));
    for (const id of [grantedRoleId, addedAppId, policy.id]) expect(listed.has(id)).toBe(false);

    const after = await runBackup(ctx, admin.token, { connectionId });
    const changes = await diff({ fromBackupId: clean.id, toBackupId: after.id });
    const about = (id: string) => changes.filter((change) => change.resource.id === id);
    expect(about(policy.id)).toEqual([]);
    expect(about(grantedRoleId)).toEqual([]);
    expect(about(addedAppId)).toEqual([]);
    // Okta gives a re-created group a new id: the diff pairs it with the group it replaces
    // through the undo's id map, and finds nothing else changed (server-owned fields aside),
    // so the group and its memberships are no change; the summary names the pair.
    const newGroupId = undone.items.find(
      (item) => item.resourceType === 'group' && item.resourceId === deletedGroup.id,
    )?.newId as string;
    expect(newGroupId).toEqual(expect.any(String));
    expect(about(deletedGroup.id)).toEqual([]);
    expect(about(newGroupId)).toEqual([]);
    const touching = (id: string) => changes.filter((change) => change.resource.id.split(':').includes(id));
    expect(touching(deletedGroup.id)).toEqual([]);
    expect(touching(newGroupId)).toEqual([]);
    const summary = await diffSummary({ fromBackupId: clean.id, toBackupId: after.id });
    expect(summary.recreated).toContainEqual({
      resourceType: 'group',
      previousId: deletedGroup.id,
      id: newGroupId,
    });
    expect(
      summary.recreated.filter((pair) => pair.resourceType === 'group_membership').length,
    ).toBeGreaterThan(0);
    // Olivia's changes, which no undo touched, are still there.
    expect(about(renamedGroup.id).map((change) => change.action)).toEqual(['modified']);
    expect(about(oliviaGroupId).map((change) => change.action)).toEqual(['added']);
  });

  it('reverts one change from its diff row, with the same preview, and nothing else', async () => {
    const row = (await diff({ fromBackupId: clean.id, toBackupId: compromised.id })).find(
      (change) => change.resourceType === 'group' && change.resource.id === renamedGroup.id,
    )!;
    expect(row.action).toBe('modified');
    const preview = await undoPreview({ backupId: clean.id, resourceIds: row.resource.id });
    expect(preview.changes).toEqual([
      expect.objectContaining({ action: 'put_back', resourceType: 'group', id: renamedGroup.id }),
    ]);
    expect(preview.changes[0].changedBy).toMatchObject({ id: olivia.id });

    const reverted = await runRestore(ctx, admin.token, {
      backupId: clean.id,
      mode: 'undo',
      resourceIds: [row.resource.id],
    });
    expect(reverted.restore.status).toBe('completed');
    expect(reverted.items.map((item) => `${item.action} ${item.resourceType} ${item.resourceId}`)).toEqual([
      `update group ${renamedGroup.id}`,
    ]);
    expect((live('group').find((group) => group.id === renamedGroup.id)!.data.profile as Json).name).toBe(
      (renamedGroup.data.profile as Json).name,
    );
    expect(live('group').map((group) => group.id)).toContain(oliviaGroupId);
  });

  it('pairs a group a plain restore re-created under a new id with the deleted one: no change in the diff', async () => {
    const state = org.sim.snapshot();
    const members = new Set(state.group_membership.map((membership) => membership.id.split(':')[0]));
    const group = state.group.find(
      (candidate) =>
        candidate.data.type === 'OKTA_GROUP' &&
        members.has(candidate.id) &&
        ![deletedGroup.id, renamedGroup.id, oliviaGroupId].includes(candidate.id),
    )!;
    const base = await runBackup(ctx, admin.token, { connectionId });
    await okta.call('DELETE', `/api/v1/groups/${group.id}`);
    const restored = await runRestore(ctx, admin.token, {
      backupId: base.id,
      mode: 'selective',
      resourceTypes: ['group'],
      resourceIds: [group.id],
    });
    expect(restored.restore.status).toBe('completed');
    const newId = restored.items.find((item) => item.resourceId === group.id)?.newId as string;
    expect(newId).toEqual(expect.any(String));
    expect(newId).not.toBe(group.id);
    const after = await runBackup(ctx, admin.token, { connectionId });

    const response = await ctx.http
      .get('/api/diff')
      .set(auth())
      .query({ fromBackupId: base.id, toBackupId: after.id });
    expect(response.status).toBe(200);
    const changes = response.body.changes as DiffChange[];
    const touching = (id: string) => changes.filter((change) => change.resource.id.split(':').includes(id));
    expect(touching(group.id)).toEqual([]);
    expect(touching(newId)).toEqual([]);
    expect(response.body.summary.recreated).toContainEqual({
      resourceType: 'group',
      previousId: group.id,
      id: newId,
    });
    // The other way round, the same pair.
    const back = await diffSummary({ fromBackupId: after.id, toBackupId: base.id });
    expect(back.recreated).toContainEqual({ resourceType: 'group', previousId: newId, id: group.id });

    // Renamed after its re-creation: one change, the re-created group modified, naming its old id.
    await okta.call('PUT', `/api/v1/groups/${newId}`, {
      json: { profile: { ...(group.data.profile as Json), name: 'Re-created, renamed' } },
    });
    const later = await runBackup(ctx, admin.token, { connectionId });
    const renamedAfter = (await diff({ fromBackupId: base.id, toBackupId: later.id })).filter((change) =>
      [group.id, newId].includes(change.resource.id),
    );
    expect(renamedAfter).toEqual([
      expect.objectContaining({
        resourceType: 'group',
        action: 'modified',
        resource: expect.objectContaining({
          id: newId,
          changes: expect.arrayContaining([
            { op: 'replace', path: '/profile/name', value: 'Re-created, renamed' },
          ]),
        }),
        recreated: { previousId: group.id },
      }),
    ]);
  });

  it('reverts one field of a policy, leaving a field changed later as it is now', async () => {
    const base = await runBackup(ctx, admin.token, { connectionId });
    const current = live('policy').find((record) => record.id === policy.id)!;
    const { _links: _dropped, ...body } = structuredClone(current.data);
    // Another length than now (the earlier undo put Mallory's 4 back to the clean value).
    ((((body.settings as Json).password as Json).complexity as Json).minLength as number) =
      minLength(current) + 3;
    const weakened = await okta.call('PUT', `/api/v1/policies/${policy.id}`, { json: body });
    expect(weakened.status).toBe(200);
    const later = await okta.call('PUT', `/api/v1/policies/${policy.id}`, {
      json: { ...body, description: 'Changed later, kept' },
    });
    expect(later.status).toBe(200);

    const path = '/settings/password/complexity/minLength';
    const reverted = await runRestore(ctx, admin.token, {
      backupId: base.id,
      mode: 'undo',
      fields: [{ resourceId: policy.id, path }],
    });
    expect(reverted.restore.status).toBe('completed');
    expect(reverted.restore.undo).toEqual({ fields: [{ resourceId: policy.id, path }] });
    expect(reverted.items.map((item) => `${item.action} ${item.resourceType} ${item.resourceId}`)).toEqual([
      `update policy ${policy.id}`,
    ]);
    const after = live('policy').find((record) => record.id === policy.id)!;
    expect(minLength(after)).toBe(minLength(current));
    expect(after.data.description).toBe('Changed later, kept');

    // A field the provider sets itself cannot be written; fields belong to an undo.
    const post = (json: Json) =>
      ctx.http
        .post('/api/restore')
        .set(auth())
        .send({ backupId: base.id, ...json });
    const owned = await post({ mode: 'undo', fields: [{ resourceId: policy.id, path: '/lastUpdated' }] });
    expect(owned.status).toBe(400);
    expect(owned.body.details).toEqual([
      expect.objectContaining({ field: 'fields[0].path', message: expect.stringContaining('lastUpdated') }),
    ]);
    const selective = await post({
      mode: 'selective',
      resourceTypes: ['policy'],
      fields: [{ resourceId: policy.id, path }],
    });
    expect(selective.status).toBe(400);
    expect(selective.body.details).toEqual([expect.objectContaining({ field: 'fields' })]);
    const notPointer = await post({ mode: 'undo', fields: [{ resourceId: policy.id, path: 'settings' }] });
    expect(notPointer.status).toBe(400);
  });

  it('refuses undo filters on other modes, prune with an undo, and a window that ends before it starts', async () => {
    const post = (body: Json) =>
      ctx.http
        .post('/api/restore')
        .set(auth())
        .send({ backupId: clean.id, ...body });
    const onFull = await post({ mode: 'full', actor: mallory.id });
    expect(onFull.status).toBe(400);
    expect(onFull.body.details).toEqual([expect.objectContaining({ field: 'actor' })]);
    expect((await post({ mode: 'undo', prune: true })).status).toBe(400);
    const backwards = await post({
      mode: 'undo',
      since: '2026-01-02T00:00:00Z',
      until: '2026-01-01T00:00:00Z',
    });
    expect(backwards.status).toBe(400);
    expect(backwards.body.details).toEqual([expect.objectContaining({ field: 'since' })]);
  });
});
