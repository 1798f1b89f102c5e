import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FRAMEWORK_IDS } from '@libs/compliance/frameworks/framework-types.js';
import { providerDescriptor } from '@libs/providers/registry.js';
import { csdlFile, scubaGearFile } from '@libs/simulators/entra/testing/fixture-paths.js';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import { runBackup } from './support/backup-helpers.js';
import {
  createEntraConnection,
  patchGraph,
  startTestTenant,
  type TestTenant,
} from './support/entra-tenant.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

const FIXTURE = scubaGearFile();

type Json = Record<string, unknown>;
interface Finding {
  control: string;
  status: string;
  check: string;
  evidence: Json & { resources: Array<{ id: string; name: string | null; observed?: Json }>; note?: string };
}

/** The real tenant's conditional access policy "MS.AAD.1.1v1 Legacy authentication SHALL be blocked". */
const LEGACY_POLICY = 'f56276cf-d30f-4e0f-9d73-d72f99370dcb';
/** Its "MS.AAD.3.9v1 Device code authentication SHOULD be blocked", which excludes one user. */
const DEVICE_CODE_POLICY = '2af2e7a1-f8c0-4c4c-9b29-df8c29380cee';
/** A Global Administrator of the real tenant assigned with no end date. */
const PERMANENT_GLOBAL_ADMIN = '2d9a50a8-6688-48eb-8646-86acb74e2f05';

/**
 * docs/compliance.md "Microsoft Entra ID": the SCuBA checks on backups of the real tenant CISA's
 * ScubaGear exported (seeded into the Graph simulator), through the real app: every framework
 * answers with Entra checks, the tenant's failures name the policy or role holder behind them,
 * and a policy an admin turns report-only through Graph fails its check in the next backup.
 */
(FIXTURE ? describe : describe.skip)(
  'Entra ID compliance (HTTP, real PostgreSQL, Graph simulator over HTTPS)',
  () => {
    let tenant: TestTenant;
    let ctx: TestApp;
    let admin: TestClient;
    let connectionId: string;
    let first: BackupDto;

    const check = (body: Json) =>
      ctx.http.post('/api/compliance/check').set('Authorization', `Bearer ${admin.token}`).send(body);
    const finding = (findings: Finding[], control: string, checkId: string) => {
      const found = findings.find((f) => f.control === control && f.check === checkId);
      if (!found) throw new Error(`no finding ${control} ${checkId}`);
      return found;
    };

    beforeAll(async () => {
      tenant = await startTestTenant(
        { scubaGearFile: FIXTURE, csdlFile: csdlFile(), users: 30, groups: 4, seed: 30 },
        providerDescriptor('entra_id')!.grants(),
      );
      ctx = await startTestApp(tenant.env);
      admin = await ctx.newClient({ role: 'admin' });
      connectionId = await createEntraConnection(ctx, admin.token, tenant);
      first = await runBackup(ctx, admin.token, { connectionId });
      expect(first.status).toBe('completed');
    });

    afterAll(async () => {
      await ctx?.close();
      await tenant?.sim.close();
    });

    it('answers all six frameworks with Entra checks, not all manual', async () => {
      const judged = new Set<string>();
      for (const framework of FRAMEWORK_IDS) {
        const response = await check({ connectionId, framework, backupId: first.id });
        expect(response.status).toBe(200);
        const findings = response.body.findings as Finding[];
        const entra = findings.filter((f) => f.check.startsWith('entra.'));
        expect({ framework, entra: entra.length }).not.toEqual({ framework, entra: 0 });
        expect({ framework, judged: entra.some((f) => f.status === 'pass' || f.status === 'fail') }).toEqual({
          framework,
          judged: true,
        });
        // A manual finding always says why.
        for (const f of findings.filter((x) => x.status === 'manual'))
          expect(f.evidence.note).toEqual(expect.any(String));
        for (const f of entra) if (f.status !== 'manual') judged.add(f.check);
      }
      expect(judged.size).toBeGreaterThanOrEqual(20);
    });

    it("names the tenant's failures with their evidence: the policy and the role holders behind each", async () => {
      const response = await check({ connectionId, framework: 'nist', backupId: first.id });
      const findings = response.body.findings as Finding[];

      expect(finding(findings, 'AC-17', 'entra.access.device_code_blocked')).toMatchObject({
        status: 'fail',
        evidence: {
          resourceType: 'conditional_access_policy',
          resources: [
            {
              id: DEVICE_CODE_POLICY,
              name: 'MS.AAD.3.9v1 Device code authentication SHOULD be blocked',
              observed: { state: 'enabled', gaps: [`excludeUsers: ${PERMANENT_GLOBAL_ADMIN}`] },
            },
          ],
        },
      });
      const permanent = finding(findings, 'AC-6(5)', 'entra.admins.permanent_assignments');
      expect(permanent.status).toBe('fail');
      expect(permanent.evidence.resources).toContainEqual({
        id: PERMANENT_GLOBAL_ADMIN,
        name: null,
        observed: expect.objectContaining({
          role: 'Global Administrator',
          expiration: expect.objectContaining({ type: 'noExpiration' }),
        }),
      });
      const globalAdmins = finding(findings, 'AC-6(5)', 'entra.admins.global_admin_count');
      expect(globalAdmins).toMatchObject({ status: 'fail', evidence: { expected: { min: 2, max: 5 } } });
      expect((globalAdmins.evidence.observed as { globalAdmins: number }).globalAdmins).toBeGreaterThan(5);
      expect(globalAdmins.evidence.resources.map((r) => r.id)).toContain(PERMANENT_GLOBAL_ADMIN);
      expect(finding(findings, 'CM-11', 'entra.apps.user_registration')).toMatchObject({
        status: 'fail',
        evidence: { resources: [{ id: 'authorizationPolicy', observed: { allowedToCreateApps: true } }] },
      });
      expect(finding(findings, 'IA-5', 'entra.authenticators.methods_migrated')).toMatchObject({
        status: 'fail',
        evidence: { observed: { policyMigrationState: 'migrationInProgress' } },
      });
      // What the backup cannot hold is manual, with the reason and the permission that would provide it.
      expect(finding(findings, 'AC-6(5)', 'entra.admins.activation_approval')).toMatchObject({
        status: 'manual',
        evidence: { note: expect.stringContaining('RoleManagementPolicy.Read.Directory') },
      });
      // And what it holds and meets the baseline passes, naming the policy that enforces it.
      expect(finding(findings, 'IA-2', 'entra.access.legacy_auth_blocked')).toMatchObject({
        status: 'pass',
        evidence: { resources: [{ id: LEGACY_POLICY, observed: { state: 'enabled', gaps: [] } }] },
      });
    });

    it('fails the legacy authentication check once its policy is turned report-only through Graph', async () => {
      const patched = await patchGraph(
        tenant,
        'Policy.ReadWrite.ConditionalAccess',
        `/identity/conditionalAccess/policies/${LEGACY_POLICY}`,
        { state: 'enabledForReportingButNotEnforced' },
      );
      expect(patched).toBe(204);
      const second = await runBackup(ctx, admin.token, { connectionId });
      expect(second.status).toBe('completed');

      const response = await check({ connectionId, framework: 'nist' });
      expect(response.status).toBe(200);
      expect(response.body.backupId).toBe(second.id);
      expect(
        finding(response.body.findings as Finding[], 'IA-2', 'entra.access.legacy_auth_blocked'),
      ).toMatchObject({
        status: 'fail',
        evidence: {
          backupId: second.id,
          resources: [
            {
              id: LEGACY_POLICY,
              observed: {
                state: 'enabledForReportingButNotEnforced',
                gaps: ['report-only (enabledForReportingButNotEnforced): not enforced'],
              },
            },
          ],
        },
      });
      const before = await check({ connectionId, framework: 'nist', backupId: first.id });
      expect(
        finding(before.body.findings as Finding[], 'IA-2', 'entra.access.legacy_auth_blocked').status,
      ).toBe('pass');
    });
  },
);
