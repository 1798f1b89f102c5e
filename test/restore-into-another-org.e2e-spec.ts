import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type RunningSimulator } from '@libs/simulators/okta/index.js';
import { OKTA_CATEGORIES } from '@libs/providers/okta/okta-categories.js';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import { installApiServiceIntegration } from '@tools/demo/okta-api-service.js';
import { compileMapping, type CrossOrgMapping } from '@libs/restore/cross-org/mapping.js';
import { createConnection, openSnapshot, runBackup } from './support/backup-helpers.js';
import { rememberSecrets } from './support/log-capture.js';
import { OKTA_FIDELITY } from './support/okta-fidelity.js';
import { RESTORE_SCOPES, runRestore, type RestoreView } from './support/restore-helpers.js';
import { ROUND_TRIP_TOKEN_SECONDS, type Unavoidable } from './support/restore-fidelity.js';
import { diffModuloMapping, type CrossOrgRow } from './support/cross-org-fidelity.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

type Json = Record<string, unknown>;

/** What a promotion moves: every category but the people (users stay each org's own). */
const CONFIGURATION = Object.keys(OKTA_CATEGORIES).filter((category) => category !== 'users');

/** Differences only a restore into another org has, beside those of docs/restore-fidelity.md's list. */
const CROSS_ORG_UNAVOIDABLE: Partial<Record<string, Unavoidable[]>> = {
  app: [
    {
      path: /^\/credentials\/oauthClient\/client_id$/,
      why: "an OIDC app keeps the source org's client_id (Okta takes it on creation, Application credentials.oauthClient.client_id), so its clients keep theirs; Okta gives a new app's client_id its id only when none is given",
    },
  ],
};

/**
 * docs/restore.md "Into another org": a generated org's backup restored into an empty simulated
 * org (another connection of the team) with its users' domain rewritten, then a backup of the
 * target compared with the source modulo the mapping, type by type (docs/restore-fidelity.md
 * "Into another org").
 */
describe('restore into another org (Okta)', () => {
  let certDir: string;
  let source: RunningSimulator;
  let target: RunningSimulator;
  let ctx: TestApp;
  let admin: TestClient;
  let sourceId: string;
  let targetId: string;
  let backupId: string;
  let sourceDomain: string;
  let mapping: CrossOrgMapping;
  let restored: RestoreView;
  let rows: CrossOrgRow[] = [];
  let targetApp: { clientId: string; clientSecret: string };

  const auth = () => ({ Authorization: `Bearer ${admin.token}` });

  beforeAll(async () => {
    certDir = await mkdtemp(join(tmpdir(), 'cross-org-'));
    // One CA for both orgs, so the service trusts both (PROVIDER_CA_FILE).
    source = await startSimulator({ users: 30, groups: 6, apps: 5, seed: 7, certDir });
    target = await startSimulator({ users: 0, groups: 0, apps: 0, seed: 71, certDir });
    const sourceApp = await installApiServiceIntegration(source, RESTORE_SCOPES);
    targetApp = await installApiServiceIntegration(target, RESTORE_SCOPES);
    rememberSecrets(sourceApp.clientSecret, targetApp.clientSecret);
    ctx = await startTestApp({
      PROVIDER_ALLOWED_HOSTS: '127.0.0.1',
      PROVIDER_CA_FILE: source.caCertPath,
      ACCESS_TOKEN_TTL: String(ROUND_TRIP_TOKEN_SECONDS),
    });
    admin = await ctx.newClient({ role: 'admin' });
    sourceId = await createConnection(ctx, admin.token, { baseUrl: source.baseUrl, ...sourceApp });
    targetId = await createConnection(ctx, admin.token, { baseUrl: target.baseUrl, ...targetApp });
    backupId = (await runBackup(ctx, admin.token, { connectionId: sourceId })).id;
    const login = (source.snapshot().user[0].data.profile as { login: string }).login;
    sourceDomain = login.split('@')[1];
    // The org's own host too: its default theme's assets and apps' links to the org stand under it.
    mapping = {
      domains: [{ from: sourceDomain, to: 'sandbox.example.org' }],
      hosts: [{ from: new URL(source.baseUrl).host, to: new URL(target.baseUrl).host }],
    };
  });

  afterAll(async () => {
    await ctx?.close();
    await source?.close();
    await target?.close();
    await rm(certDir, { recursive: true, force: true });
  });

  it("previews against the target's live org, object by object, matched by natural key and never by id", async () => {
    const response = await ctx.http
      .post('/api/restore')
      .set(auth())
      .send({ backupId, targetConnectionId: targetId, mapping });
    expect(response.status).toBe(200);
    const { crossOrg, preview } = response.body as {
      crossOrg: {
        objects: Json[];
        objectsTotal: number;
        targetConnectionId: string;
        unmapped: Json[];
        cannotMove: Json[];
      };
      preview: Json[];
    };
    expect(crossOrg.targetConnectionId).toBe(targetId);
    const objects = crossOrg.objects;
    const users = objects.filter((object) => object.resourceType === 'user');
    expect(users).toHaveLength(source.snapshot().user.length);
    expect(users.every((user) => user.action === 'create' && user.targetId === null)).toBe(true);
    expect(
      users.every((user) => String(user.name).endsWith('@sandbox.example.org') || user.name === null),
    ).toBe(true);
    // The Everyone group is the target's own, matched by its name under the target's id.
    const everyone = objects.find((object) => object.resourceType === 'group' && object.name === 'Everyone')!;
    const targetEveryone = target
      .snapshot()
      .group.find((group) => (group.data.profile as Json).name === 'Everyone')!;
    expect(everyone).toMatchObject({ targetId: targetEveryone.id });
    expect(everyone.sourceId).not.toBe(targetEveryone.id);
    expect(['same', 'update']).toContain(everyone.action);
    // Each creation of the rows is an object to create, or one the API cannot write (named).
    const rowsCreate = preview.reduce((sum, row) => sum + Number(row.create), 0);
    const unwritable = crossOrg.cannotMove.filter((entry) => entry.kind === 'not_writable');
    expect(unwritable.map((entry) => entry.resourceType).sort()).toEqual([
      'app_client_secret',
      'app_feature',
      'app_signing_key',
    ]);
    const unwritten = unwritable.reduce((sum, entry) => sum + Number(entry.count), 0);
    expect(objects.filter((object) => object.action === 'create')).toHaveLength(rowsCreate - unwritten);
  });

  it("refuses another team's connection (404) and a mapping without a target (400)", async () => {
    const other = await ctx.newClient({ role: 'admin' });
    const foreignId = await createConnection(ctx, other.token, { baseUrl: target.baseUrl, ...targetApp });
    const foreign = await ctx.http
      .get('/api/restore')
      .set(auth())
      .query({ backupId, targetConnectionId: foreignId });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: 'not_found' });
    const noTarget = await ctx.http.post('/api/restore').set(auth()).send({ backupId, mapping });
    expect(noTarget.status).toBe(400);
    expect(noTarget.body.details).toMatchObject({ code: 'mapping_without_target' });
  });

  it('restores into the target; a backup of the target then diffs empty against the source modulo the mapping', async () => {
    restored = await runRestore(ctx, admin.token, {
      backupId,
      mode: 'full',
      targetConnectionId: targetId,
      mapping,
    });
    expect(restored.restore).toMatchObject({
      connection_id: targetId,
      source_connection_id: sourceId,
      mapping,
    });
    expect(restored.restore.pre_restore_backup_id).toEqual(expect.any(String));
    expect(restored.items.filter((item) => item.outcome === 'failed')).toEqual([]);
    const after = await runBackup(ctx, admin.token, { connectionId: targetId });
    const before = await ctx.http
      .get(`/api/backup/${String(restored.restore.pre_restore_backup_id)}`)
      .set(auth());
    const sourceBackup = await ctx.http.get(`/api/backup/${backupId}`).set(auth());
    rows = await diffModuloMapping({
      provider: OKTA_FIDELITY,
      crossOrgUnavoidable: CROSS_ORG_UNAVOIDABLE,
      lostByDesign: (type, record, notWritten) => {
        const app = String((record.data.target as Json | undefined)?.id);
        return type === 'profile_mapping' && [...notWritten].some((id) => id.startsWith(`${app}:`))
          ? "Okta makes an app's outbound profile mapping when its provisioning is enabled (app_feature), which its API cannot write: set provisioning up again, then the mapping"
          : null;
      },
      source: await openSnapshot(ctx, sourceBackup.body.backup.storage_key as string),
      target: await openSnapshot(ctx, after.storage_key),
      targetBefore: await openSnapshot(ctx, before.body.backup.storage_key as string),
      restored,
      mapping: compileMapping('okta', mapping),
    });
    expect(rows.filter((row) => row.result === 'FAILS')).toEqual([]);
  });

  it('runs again idempotently: nothing left to create', async () => {
    const again = await ctx.http
      .post('/api/restore')
      .set(auth())
      .send({ backupId, targetConnectionId: targetId, mapping });
    expect(again.status).toBe(200);
    const creates = (again.body.crossOrg.objects as Json[]).filter((object) => object.action === 'create');
    expect(creates).toEqual([]);
  });

  it('promotes a change from a preview org: previewed as one update and nothing else, then executed', async () => {
    const okta = new SimulatorClient(source);
    const group = source.snapshot().group.find((candidate) => candidate.data.type === 'OKTA_GROUP')!;
    const profile = group.data.profile as Json;
    try {
      const answer = await okta.call('PUT', `/api/v1/groups/${group.id}`, {
        json: { profile: { ...profile, description: 'Promoted from the preview org' } },
      });
      expect(answer.status).toBe(200);
    } finally {
      await okta.close();
    }
    const changed = await runBackup(ctx, admin.token, { connectionId: sourceId });
    const body = {
      backupId: changed.id,
      targetConnectionId: targetId,
      mapping,
      resourceTypes: CONFIGURATION,
    };
    const preview = await ctx.http.post('/api/restore').set(auth()).send(body);
    expect(preview.status).toBe(200);
    const objects = preview.body.crossOrg.objects as Json[];
    // Writes: the one change. The target's own objects (`target_only`) are named and left alone.
    const moving = objects.filter((object) => ['create', 'update'].includes(String(object.action)));
    expect(moving).toEqual([
      expect.objectContaining({
        resourceType: 'group',
        sourceId: group.id,
        action: 'update',
        name: profile.name,
      }),
    ]);
    const promoted = await runRestore(ctx, admin.token, { ...body, mode: 'selective' });
    expect(promoted.restore.totals).toMatchObject({ create: 0, update: 1, failed: 0 });
    const live = target
      .snapshot()
      .group.find((candidate) => (candidate.data.profile as Json).name === profile.name)!;
    expect((live.data.profile as Json).description).toBe('Promoted from the preview org');
  });
});
