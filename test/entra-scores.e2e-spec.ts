import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { providerDescriptor } from '@libs/providers/registry.js';
import { graphClient, type GraphTestClient } from '@libs/simulators/entra/testing/graph-client.js';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import { runBackup } from './support/backup-helpers.js';
import { createEntraConnection, startTestTenant, type TestTenant } from './support/entra-tenant.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

interface Entry {
  connectionId: string;
  score: number;
  lastBackupAt: string | null;
  drift: {
    changes: number;
    bySeverity: Record<string, number>;
    checkedAt: string;
    since: string;
    countedFrom: string;
    incompleteReason?: string;
    error?: string;
  } | null;
}

const POLICIES = '/v1.0/identity/conditionalAccess/policies';

/**
 * Readiness drift of Entra ID connections from Graph's directory audit: a conditional access
 * policy disabled through Graph after a backup is critical drift once the drift job (every second
 * here) has read `auditLogs/directoryAudits`; a connection whose last backup is older than the
 * tenant keeps its audit log (7 days without Entra ID P1 or P2) says its count is partial.
 */
describe('Entra ID readiness drift (HTTP, real PostgreSQL, Graph simulator over HTTPS)', () => {
  let tenant: TestTenant;
  let ctx: TestApp;
  let db: pg.Client;
  let admin: TestClient;
  let attacker: GraphTestClient;
  let attackerApp: { clientId: string; clientSecret: string };
  let policyId: string;

  const get = (path: string) => ctx.http.get(path).set('Authorization', `Bearer ${admin.token}`);
  /** Polls readiness until `until` holds for the connection's entry (the drift job runs every second). */
  const readinessWhen = async (connectionId: string, until: (entry: Entry) => boolean): Promise<Entry> => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const response = await get('/api/scores/readiness');
      expect(response.status).toBe(200);
      const entry = (response.body.perConnection as Entry[]).find((e) => e.connectionId === connectionId)!;
      if (until(entry)) return entry;
      if (Date.now() > deadline) throw new Error(`readiness never matched: ${JSON.stringify(entry)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };

  beforeAll(async () => {
    // A generated tenant: no Entra ID P1 or P2 plan, so its audit log keeps 7 days.
    tenant = await startTestTenant(
      { users: 12, groups: 3, seed: 50 },
      providerDescriptor('entra_id')!.grants(),
    );
    attackerApp = tenant.sim.registerApp(['Policy.ReadWrite.ConditionalAccess', 'Policy.Read.All']);
    attacker = await graphClient(tenant.sim, attackerApp);
    const created = await attacker.call('POST', POLICIES, {
      displayName: 'Require MFA for admins',
      state: 'enabled',
      conditions: {
        clientAppTypes: ['all'],
        applications: { includeApplications: ['All'] },
        users: { includeRoles: ['62e90394-69f5-4237-9190-012177145e10'] },
      },
      grantControls: { operator: 'OR', builtInControls: ['mfa'] },
    });
    expect(created.status).toBe(201);
    policyId = String(created.body.id);
    ctx = await startTestApp({ ...tenant.env, DRIFT_CHECK_INTERVAL_SECONDS: '1' });
    db = new pg.Client({ connectionString: ctx.databaseUrl });
    await db.connect();
    admin = await ctx.newClient({ role: 'admin' });
  });
  afterAll(async () => {
    await db?.end();
    await ctx?.close();
    await attacker?.close();
    await tenant?.sim.close();
  });

  it('refuses a connection whose app registration lacks AuditLog.Read.All, naming it', async () => {
    // Directory.Read.All reads the directory audit too ("List directoryAudits": higher privileged).
    const partial = tenant.sim.registerApp(
      providerDescriptor('entra_id')!
        .grants()
        .filter((role) => role !== 'AuditLog.Read.All' && role !== 'Directory.Read.All'),
    );
    await expect(createEntraConnection(ctx, admin.token, { ...tenant, app: partial })).rejects.toThrow(
      /400.*AuditLog\.Read\.All/,
    );
  });

  it('shows a conditional access policy disabled through Graph after the backup as critical drift', async () => {
    const connectionId = await createEntraConnection(ctx, admin.token, tenant);
    const backup: BackupDto = await runBackup(ctx, admin.token, { connectionId });
    expect(backup.status).toBe('completed');
    const since = new Date(backup.started_at as string).toISOString();
    const before = await readinessWhen(connectionId, (e) => e.drift !== null);
    expect(before).toMatchObject({
      lastBackupAt: since,
      drift: { changes: 0, bySeverity: {}, since, countedFrom: since },
    });
    expect(before.drift).not.toHaveProperty('incompleteReason');

    const [user] = tenant.sim.snapshot().user;
    tenant.sim.actAs(attackerApp.clientId, String(user.data.userPrincipalName));
    expect((await attacker.call('PATCH', `${POLICIES}/${policyId}`, { state: 'disabled' })).status).toBe(204);

    const after = await readinessWhen(connectionId, (e) => (e.drift?.changes ?? 0) > 0);
    expect(after.drift).toMatchObject({ changes: 1, bySeverity: { critical: 1 }, since, countedFrom: since });
    expect(after.score).toBeLessThan(before.score);
    const [audit] = tenant.sim.audits.held();
    expect(audit).toMatchObject({
      activityDisplayName: 'Update conditional access policy',
      initiatedBy: { user: { userPrincipalName: user.data.userPrincipalName } },
      targetResources: [{ id: policyId }],
    });
  });

  it('says so when the last backup is older than the 7 days the audit log keeps, rather than reporting no drift', async () => {
    const connectionId = await createEntraConnection(ctx, admin.token, tenant);
    const backup: BackupDto = await runBackup(ctx, admin.token, { connectionId });
    expect(backup.status).toBe('completed');
    await db.query(`UPDATE backups SET started_at = now() - interval '10 days' WHERE id = $1`, [backup.id]);
    const aged = (
      await db.query<{ started_at: Date }>('SELECT started_at FROM backups WHERE id = $1', [backup.id])
    ).rows[0].started_at.toISOString();

    const entry = await readinessWhen(connectionId, (e) => e.drift?.since === aged);
    expect(entry.drift!.incompleteReason).toBe(
      `${aged} is older than the 7 days Microsoft Entra ID keeps its directory audit log without an Entra ID P1 or P2 licence`,
    );
    const countedFrom = Date.parse(entry.drift!.countedFrom);
    expect(countedFrom).toBeGreaterThan(Date.parse(aged) + 2 * 86_400_000);
    expect(countedFrom).toBeLessThanOrEqual(Date.now() - 7 * 86_400_000 + 60_000);
    // What the log still holds is counted: the policy created and disabled within the week.
    expect(entry.drift!.bySeverity.critical).toBeGreaterThanOrEqual(2);
    expect(entry.drift).not.toHaveProperty('error');
  });
});
