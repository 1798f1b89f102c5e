import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { graphClient, type GraphTestClient } from '@libs/simulators/entra/testing/graph-client.js';
import { providerDescriptor } from '@libs/providers/registry.js';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import { runBackup } from './support/backup-helpers.js';
import { type EntraRestoreSetup, startEntraRestoreSetup } from './support/entra-restore-setup.js';
import { createEntraConnection } from './support/entra-tenant.js';
import { runRestore } from './support/restore-helpers.js';

type Json = Record<string, unknown>;
interface Attributed {
  changedBy: {
    id: string;
    displayName: string;
    type: string;
    alternateId?: string;
    ipAddress?: string;
  } | null;
  changedAt: string | null;
  attribution: string;
  byThisService?: boolean;
}
type DiffChange = Attributed & { resourceType: string; action: string; resource: { id: string } };
type UndoChange = Attributed & { resourceType: string; action: string; id: string };

/** The tenant's admins' tools: domains, conditional access, groups. */
const ADMIN_ROLES = [
  'Domain.ReadWrite.All',
  'Policy.Read.All',
  'Policy.ReadWrite.ConditionalAccess',
  'Group.ReadWrite.All',
];
const POLICIES = '/v1.0/identity/conditionalAccess/policies';
/** The generated tenant's verified domain besides its initial one (seed/generate-dependencies.ts). */
const DOMAIN = 'corp.example.com';
const FEDERATION = `/v1.0/domains/${DOMAIN}/federationConfiguration`;

/**
 * Incident recovery on the Graph simulator, over HTTPS to the real app and PostgreSQL
 * (docs/diff.md "Who changed it", docs/restore.md "Undo since a clean backup"). A "compromised"
 * admin, Mallory, signed in to an admin tool (a delegated token: the directory audit names her
 * as the initiator), federates a domain with her own identity provider and disables a
 * conditional access policy; in the same window another admin, Olivia, renames a group. The diff
 * names who did what from Graph's directory audit; an undo since the clean backup limited to
 * Mallory removes the federation and re-enables the policy, and leaves Olivia's change.
 */
describe('Entra ID: who changed it, undo since a clean backup (HTTP, PostgreSQL, Graph simulator over HTTPS)', () => {
  let setup: EntraRestoreSetup;
  let mallory: { id: string; upn: string; name: string };
  let olivia: { id: string; upn: string };
  let malloryTool: GraphTestClient;
  let oliviaTool: GraphTestClient;
  let clean: BackupDto;
  let compromised: BackupDto;
  let policyId: string;
  let federationId: string;
  let renamed: { id: string; displayName: string };

  const auth = () => ({ Authorization: `Bearer ${setup.admin.token}` });
  const sim = () => setup.tenant.sim;
  const ok = async (tool: GraphTestClient, method: string, path: string, body?: unknown): Promise<Json> => {
    const answer = await tool.call(method, path, body);
    if (answer.status >= 300)
      throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return (answer.body ?? {}) as Json;
  };
  const diff = async (query: Json): Promise<DiffChange[]> => {
    const response = await setup.ctx.http.get('/api/diff').set(auth()).query(query);
    expect(response.status).toBe(200);
    return response.body.changes as DiffChange[];
  };
  const undoPreview = async (query: Json) => {
    const response = await setup.ctx.http.get('/api/restore/undo').set(auth()).query(query);
    expect(response.status).toBe(200);
    return response.body as { changes: UndoChange[]; total: number; attribution: Json };
  };

  beforeAll(async () => {
    // The drift job every second, for the readiness of a connection without AuditLog.Read.All.
    setup = await startEntraRestoreSetup({ users: 10, groups: 3, seed: 52 }, ADMIN_ROLES, {
      DRIFT_CHECK_INTERVAL_SECONDS: '1',
    });
    const admin = await graphClient(sim(), ADMIN_ROLES);
    const [group, other] = sim().snapshot().group;
    // Before the clean backup: the tenant's second domain managed (its federation deleted: the
    // simulator, like Graph's "Create domain" aside, has no domain creation), and a policy
    // requiring MFA of one group.
    for (const federation of (await ok(admin, 'GET', FEDERATION)).value as Json[])
      await ok(admin, 'DELETE', `${FEDERATION}/${String(federation.id)}`);
    const policy = await ok(admin, 'POST', POLICIES, {
      displayName: 'Require MFA for finance',
      state: 'enabled',
      conditions: {
        clientAppTypes: ['all'],
        applications: { includeApplications: ['All'] },
        users: { includeGroups: [group.id] },
      },
      grantControls: { operator: 'OR', builtInControls: ['mfa'] },
    });
    policyId = String(policy.id);
    await admin.close();
    renamed = { id: other.id, displayName: String(other.data.displayName) };

    const users = sim().snapshot().user;
    const person = (index: number) => ({
      id: users[index].id,
      upn: String(users[index].data.userPrincipalName),
      name: String(users[index].data.displayName),
    });
    [mallory, olivia] = [person(0), person(1)];
    clean = await runBackup(setup.ctx, setup.admin.token, { connectionId: setup.connectionId });
    expect(clean.status).toBe('completed');

    const malloryApp = sim().registerApp(ADMIN_ROLES);
    sim().actAs(malloryApp.clientId, mallory.upn, '198.51.100.23');
    malloryTool = await graphClient(sim(), malloryApp);
    const federation = await ok(malloryTool, 'POST', FEDERATION, {
      displayName: 'Mallory IdP',
      issuerUri: 'https://idp.exfil.example/adfs/services/trust',
      passiveSignInUri: 'https://idp.exfil.example/adfs/ls',
      signingCertificate: 'MIIC8DCCAdigAwIBAgIQ',
      preferredAuthenticationProtocol: 'wsFed',
    });
    federationId = String(federation.id);
    await ok(malloryTool, 'PATCH', `${POLICIES}/${policyId}`, { state: 'disabled' });

    const oliviaApp = sim().registerApp(ADMIN_ROLES);
    sim().actAs(oliviaApp.clientId, olivia.upn, '198.51.100.99');
    oliviaTool = await graphClient(sim(), oliviaApp);
    await ok(oliviaTool, 'PATCH', `/v1.0/groups/${renamed.id}`, { displayName: 'Renamed by Olivia' });

    compromised = await runBackup(setup.ctx, setup.admin.token, { connectionId: setup.connectionId });
    expect(compromised.status).toBe('completed');
  });

  afterAll(async () => {
    await malloryTool?.close();
    await oliviaTool?.close();
    await setup?.close();
  });

  it('names who made each change in the diff, from the directory audit, and filters by actor', async () => {
    const changes = await diff({ fromBackupId: clean.id, toBackupId: compromised.id });
    const find = (type: string, id: string) =>
      changes.find((change) => change.resourceType === type && change.resource.id.includes(id));
    const malloryActor = {
      id: mallory.id,
      type: 'user',
      displayName: mallory.name,
      alternateId: mallory.upn,
      ipAddress: '198.51.100.23',
    };
    expect(find('domain_federation_configuration', federationId)).toMatchObject({
      action: 'added',
      attribution: 'recorded',
      changedBy: malloryActor,
      byThisService: false,
    });
    expect(find('conditional_access_policy', policyId)).toMatchObject({
      action: 'modified',
      attribution: 'recorded',
      changedBy: malloryActor,
    });
    expect(find('group', renamed.id)).toMatchObject({
      action: 'modified',
      changedBy: { id: olivia.id, type: 'user', alternateId: olivia.upn },
    });

    const hers = await diff({ fromBackupId: clean.id, toBackupId: compromised.id, actor: mallory.id });
    expect(hers.map((change) => change.resourceType).sort()).toEqual(
      expect.arrayContaining(['conditional_access_policy', 'domain_federation_configuration']),
    );
    expect(hers.some((change) => change.resource.id === renamed.id)).toBe(false);
  });

  it("undoes exactly that actor's changes: the federation removed, the policy enabled, the other admin's rename left", async () => {
    const preview = await undoPreview({ backupId: clean.id, actor: mallory.id });
    expect(preview.attribution).toEqual({ available: true });
    const listed = preview.changes.map((change) => `${change.action} ${change.resourceType}`);
    expect(listed).toEqual(
      expect.arrayContaining([
        'delete domain_federation_configuration',
        'put_back conditional_access_policy',
      ]),
    );
    for (const change of preview.changes) expect(change.changedBy).toMatchObject({ id: mallory.id });

    const undone = await runRestore(setup.ctx, setup.admin.token, {
      backupId: clean.id,
      mode: 'undo',
      actor: mallory.id,
    });
    expect(undone.restore).toMatchObject({ status: 'completed', mode: 'undo', undo: { actor: mallory.id } });

    const live = sim().snapshot();
    expect(
      live.domain_federation_configuration.filter((record) => record.id.startsWith(`${DOMAIN}:`)),
    ).toEqual([]);
    expect(live.conditional_access_policy.find((record) => record.id === policyId)?.data.state).toBe(
      'enabled',
    );
    expect(live.group.find((record) => record.id === renamed.id)?.data.displayName).toBe('Renamed by Olivia');

    const after = await runBackup(setup.ctx, setup.admin.token, { connectionId: setup.connectionId });
    const changes = await diff({ fromBackupId: clean.id, toBackupId: after.id });
    const about = (id: string) => changes.filter((change) => change.resource.id.includes(id));
    expect(about(policyId)).toEqual([]);
    expect(about(federationId)).toEqual([]);
    expect(about(DOMAIN)).toEqual([]);
    expect(about(renamed.id)).toEqual([expect.objectContaining({ action: 'modified' })]);
    // The service's own writes are attributed to it, and never offered for undo.
    expect((await undoPreview({ backupId: clean.id })).changes.filter((c) => c.byThisService)).toEqual([]);
  });

  it('pairs a conditional access policy a plain restore re-created under a new id with the deleted one', async () => {
    const created = await ok(oliviaTool, 'POST', POLICIES, {
      displayName: 'Report legacy sign-ins',
      state: 'enabledForReportingButNotEnforced',
      conditions: {
        clientAppTypes: ['exchangeActiveSync', 'other'],
        applications: { includeApplications: ['All'] },
        users: { includeGroups: [renamed.id] },
      },
      grantControls: { operator: 'OR', builtInControls: ['block'] },
    });
    const id = String(created.id);
    const base = await runBackup(setup.ctx, setup.admin.token, { connectionId: setup.connectionId });
    await ok(oliviaTool, 'DELETE', `${POLICIES}/${id}`);
    const restored = await runRestore(setup.ctx, setup.admin.token, {
      backupId: base.id,
      mode: 'selective',
      resourceTypes: ['conditional_access_policy'],
      resourceIds: [id],
    });
    expect(restored.restore.status).toBe('completed');
    const newId = restored.items.find((item) => item.resourceId === id)?.newId as string;
    expect(newId).toEqual(expect.any(String));
    const after = await runBackup(setup.ctx, setup.admin.token, { connectionId: setup.connectionId });
    const response = await setup.ctx.http
      .get('/api/diff')
      .set(auth())
      .query({ fromBackupId: base.id, toBackupId: after.id });
    expect(response.status).toBe(200);
    const about = (response.body.changes as DiffChange[]).filter((change) =>
      [id, newId].includes(change.resource.id),
    );
    expect(about).toEqual([]);
    expect(response.body.summary.recreated).toContainEqual({
      resourceType: 'conditional_access_policy',
      previousId: id,
      id: newId,
    });
  });

  it('backs up a connection whose app lost AuditLog.Read.All, and says the permission is missing instead of who', async () => {
    const tenant = setup.tenant;
    const grants = providerDescriptor('entra_id')!.grants();
    const app = sim().registerApp(grants);
    const connectionId = await createEntraConnection(setup.ctx, setup.admin.token, { ...tenant, app });
    const first = await runBackup(setup.ctx, setup.admin.token, { connectionId });
    expect(first.status).toBe('completed');
    // Consent to AuditLog.Read.All revoked (as for a connection made before it was asked for).
    sim().grantRoles(
      app.clientId,
      grants.filter((role) => role !== 'AuditLog.Read.All'),
    );
    await ok(oliviaTool, 'PATCH', `/v1.0/groups/${renamed.id}`, { displayName: 'Renamed again' });
    const second = await runBackup(setup.ctx, setup.admin.token, { connectionId });
    expect(second.status).toBe('completed');

    const preview = await undoPreview({ backupId: first.id });
    expect(preview.attribution).toEqual({
      available: false,
      reason: expect.stringContaining('AuditLog.Read.All'),
    });
    expect(preview.changes.find((change) => change.id === renamed.id)).toMatchObject({
      action: 'put_back',
      changedBy: null,
      attribution: 'not_available',
    });
    // The diff over the backup that could not read the log says why, not `no_record`.
    const renamedInDiff = (await diff({ fromBackupId: first.id, toBackupId: second.id })).find(
      (change) => change.resourceType === 'group' && change.resource.id === renamed.id,
    );
    expect(renamedInDiff).toMatchObject({
      action: 'modified',
      changedBy: null,
      attribution: 'not_available',
      attributionReason: expect.stringContaining('AuditLog.Read.All'),
    });

    // Readiness: the drift is not counted, and says which permission is missing.
    const deadline = Date.now() + 60_000;
    let drift: Json | null = null;
    while (Date.now() < deadline) {
      const readiness = await setup.ctx.http.get('/api/scores/readiness').set(auth());
      expect(readiness.status).toBe(200);
      const entry = (
        readiness.body.perConnection as Array<{ connectionId: string; drift: Json | null }>
      ).find((candidate) => candidate.connectionId === connectionId);
      drift = entry?.drift ?? null;
      if (typeof drift?.error === 'string') break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(drift).toMatchObject({ changes: 0, error: expect.stringMatching(/AuditLog\.Read\.All/) });
  }, 120_000);
});
