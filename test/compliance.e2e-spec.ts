import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import type { SnapshotRecord } from '@libs/simulators/okta/index.js';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import { createConnection, runBackup } from './support/backup-helpers.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

type Json = Record<string, unknown>;
interface Finding {
  control: string;
  status: string;
  severity: string;
  check: string;
  evidence: Json & { resources: Array<{ id: string; name: string | null; observed?: Json }>; total: number };
}

const DAY_MS = 86_400_000;
const ENABLED = new Set(['ACTIVE', 'PASSWORD_EXPIRED', 'LOCKED_OUT', 'RECOVERY']);

/**
 * Compliance checks on backups of a simulated org changed through its Okta API between
 * backups, so that specific controls fail and pass: password length (PCI DSS 8.3.6 against
 * NIST SP 800-63B's MFA rule), inactive users (PCI DSS 8.2.6).
 */
describe('POST /api/compliance/check (HTTP, real PostgreSQL, simulator over HTTPS)', () => {
  let org: TestOrg;
  let okta: SimulatorClient;
  let ctx: TestApp;
  let admin: TestClient;
  let auditor: TestClient;
  let connectionId: string;
  let baseline: BackupDto;
  let shortPasswords: BackupDto;
  let shortPasswordsWithMfa: BackupDto;
  let freshUsersOnly: BackupDto;
  let passwordPolicies: SnapshotRecord[];
  let staleUser: SnapshotRecord;

  const check = (body: Json, client = auditor) =>
    ctx.http.post('/api/compliance/check').set('Authorization', `Bearer ${client.token}`).send(body);
  const finding = (findings: Finding[], control: string, checkId: string) => {
    const found = findings.find((f) => f.control === control && f.check === checkId);
    if (!found) throw new Error(`no finding ${control} ${checkId}`);
    return found;
  };
  const put = async (path: string, data: Json) => {
    const { _links: _ignored, ...body } = data;
    const response = await okta.call('PUT', path, { json: body });
    expect(response.status).toBe(200);
  };

  beforeAll(async () => {
    org = await startTestOrg({ users: 24, groups: 4, apps: 3, seed: 26 });
    okta = new SimulatorClient(org.sim);
    ctx = await startTestApp(org.env);
    admin = await ctx.newClient({ role: 'admin' });
    auditor = await ctx.newClient({ role: 'auditor', teamId: admin.teamId });
    connectionId = await createConnection(ctx, admin.token, { baseUrl: org.sim.baseUrl, ...org.integration });
    baseline = await runBackup(ctx, admin.token, { connectionId });

    const state = org.sim.snapshot();
    passwordPolicies = state.policy.filter((p) => p.data.type === 'PASSWORD');
    staleUser = state.user.find((u) => u.data.status === 'ACTIVE' && typeof u.data.lastLogin === 'string')!;
    expect(passwordPolicies.length).toBeGreaterThan(0);
    expect(Date.now() - Date.parse(String(staleUser.data.lastLogin))).toBeGreaterThan(90 * DAY_MS);

    // Passwords of 8 characters everywhere.
    for (const policy of passwordPolicies) {
      const settings = structuredClone(policy.data.settings) as { password: { complexity: Json } };
      settings.password.complexity.minLength = 8;
      await put(`/api/v1/policies/${policy.id}`, { ...policy.data, settings });
    }
    shortPasswords = await runBackup(ctx, admin.token, { connectionId });

    // Then MFA on every global session rule that lets users in.
    for (const rule of org.sim.snapshot().policy_rule.filter((r) => r.data.type === 'SIGN_ON')) {
      const actions = structuredClone(rule.data.actions) as { signon: Json };
      if (actions.signon.access !== 'ALLOW') continue;
      actions.signon.requireFactor = true;
      actions.signon.factorPromptMode = 'ALWAYS';
      await put(`/api/v1/policies/${rule.id.replace(':', '/rules/')}`, { ...rule.data, actions });
    }
    shortPasswordsWithMfa = await runBackup(ctx, admin.token, { connectionId });

    // Then only people who joined today can sign in: every older enabled user is deactivated.
    for (const user of org.sim.snapshot().user.filter((u) => ENABLED.has(String(u.data.status)))) {
      const response = await okta.call('POST', `/api/v1/users/${user.id}/lifecycle/deactivate`);
      expect(response.status).toBe(200);
    }
    const joined = await okta.call('POST', '/api/v1/users?activate=true', {
      json: {
        profile: {
          firstName: 'Nia',
          lastName: 'New',
          email: 'nia.new@example.com',
          login: 'nia.new@example.com',
        },
        credentials: { password: { value: 'Correct-Horse-Battery-26' } },
      },
    });
    expect(joined.status).toBe(200);
    freshUsersOnly = await runBackup(ctx, admin.token, { connectionId });
    expect([baseline, shortPasswords, shortPasswordsWithMfa, freshUsersOnly].map((b) => b.status)).toEqual(
      Array(4).fill('completed'),
    );
  });

  afterAll(async () => {
    await ctx?.close();
    await okta?.agent.close();
    await org?.sim.close();
  });

  it('fails PCI DSS 8.3.6 on passwords of 8 characters, naming each policy, its group scope and the field read', async () => {
    const response = await check({ connectionId, framework: 'pci_dss', backupId: shortPasswords.id });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      backupId: shortPasswords.id,
      framework: 'pci_dss',
      framework_version: 'PCI DSS v4.0.1',
      score: expect.any(Number),
      generatedAt: expect.any(String),
    });
    const length = finding(response.body.findings, '8.3.6', 'okta.password.min_length');
    expect(length).toMatchObject({
      status: 'fail',
      severity: 'high',
      title: expect.any(String),
      remediation: expect.any(String),
      evidence: {
        backupId: shortPasswords.id,
        collectedAt: new Date(shortPasswords.started_at as string).toISOString(),
        resourceType: 'policy',
        pointers: ['/settings/password/complexity/minLength'],
        expected: { minLength: 12, mfaRequiredEverywhere: false },
        total: passwordPolicies.length,
      },
    });
    expect(length.evidence.resources).toEqual(
      expect.arrayContaining(
        passwordPolicies.map((p) =>
          expect.objectContaining({
            id: p.id,
            name: p.name,
            observed: {
              minLength: 8,
              groups: (p.data.conditions as { people: { groups: { include: string[] } } }).people.groups
                .include,
            },
          }),
        ),
      ),
    );
  });

  it('passes the same policies on the backup taken before they were weakened', async () => {
    const response = await check({ connectionId, framework: 'pci_dss', backupId: baseline.id });

    expect(response.status).toBe(200);
    expect(finding(response.body.findings, '8.3.6', 'okta.password.min_length').status).toBe('pass');
    expect(finding(response.body.findings, '8.3.7', 'okta.password.history').status).toBe('pass');
  });

  it('passes NIST IA-5(1) with 8 characters only once every sign-in requires MFA (SP 800-63B-4)', async () => {
    const without = await check({ connectionId, framework: 'nist', backupId: shortPasswords.id });
    const withMfa = await check({ connectionId, framework: 'nist', backupId: shortPasswordsWithMfa.id });

    expect(finding(without.body.findings, 'IA-5(1)', 'okta.password.min_length')).toMatchObject({
      status: 'fail',
      evidence: { expected: { minLength: 15, mfaRequiredEverywhere: false } },
    });
    expect(finding(withMfa.body.findings, 'IA-5(1)', 'okta.password.min_length')).toMatchObject({
      status: 'pass',
      evidence: { expected: { minLength: 8, mfaRequiredEverywhere: true } },
    });
    expect(finding(withMfa.body.findings, 'IA-2(2)', 'okta.mfa.global_session').status).toBe('pass');
    const pci = await check({ connectionId, framework: 'pci_dss', backupId: shortPasswordsWithMfa.id });
    expect(finding(pci.body.findings, '8.3.6', 'okta.password.min_length').status).toBe('fail');
  });

  it('fails PCI DSS 8.2.6 with an inactive user in the evidence, and passes once only recent users can sign in', async () => {
    const stale = await check({ connectionId, framework: 'pci_dss', backupId: baseline.id });
    const inactive = finding(stale.body.findings, '8.2.6', 'okta.users.inactive');
    expect(inactive).toMatchObject({
      status: 'fail',
      evidence: {
        resourceType: 'user',
        expected: { maxInactiveDays: 90 },
        pointers: expect.arrayContaining(['/lastLogin']),
      },
    });
    expect(inactive.evidence.total).toBeGreaterThan(0);
    expect(inactive.evidence.resources).toContainEqual({
      id: staleUser.id,
      name: staleUser.name,
      observed: { status: 'ACTIVE', lastLogin: staleUser.data.lastLogin, created: staleUser.data.created },
    });

    const recent = await check({ connectionId, framework: 'pci_dss' });
    expect(recent.body.backupId).toBe(freshUsersOnly.id);
    expect(finding(recent.body.findings, '8.2.6', 'okta.users.inactive')).toMatchObject({
      status: 'pass',
      evidence: { total: 0, observed: { offending: 0, enabledUsers: 1 } },
    });
    // CIS counts dormant accounts from 45 days: the same backup judged with its own threshold.
    const cis = await check({ connectionId, framework: 'cis_controls', backupId: baseline.id });
    expect(finding(cis.body.findings, '5.3', 'okta.users.inactive').evidence.expected).toEqual({
      maxInactiveDays: 45,
      asOf: new Date(baseline.started_at as string).toISOString(),
    });
  });

  it('answers all six frameworks with at least 25 Okta checks between them and a severity-weighted score', async () => {
    const checks = new Set<string>();
    for (const framework of ['soc2', 'hipaa', 'pci_dss', 'nist', 'iso27001', 'cis_controls']) {
      const response = await check({ connectionId, framework, backupId: baseline.id });
      expect(response.status).toBe(200);
      expect(response.body.score).toBeGreaterThanOrEqual(0);
      expect(response.body.score).toBeLessThanOrEqual(100);
      for (const f of response.body.findings as Finding[]) {
        expect(['pass', 'fail', 'warning', 'not_applicable', 'manual']).toContain(f.status);
        // An Okta report lists Okta's checks and the service's own, no other provider's.
        expect(f.check).toMatch(/^(okta|service)\./);
        if (f.check.startsWith('okta.')) checks.add(f.check);
      }
    }
    expect(checks.size).toBeGreaterThanOrEqual(25);
  });

  it('serves a second request from the database and records both runs in the audit trail', async () => {
    const first = await check({ connectionId, framework: 'hipaa', backupId: shortPasswordsWithMfa.id });
    const second = await check({ connectionId, framework: 'hipaa', backupId: shortPasswordsWithMfa.id });

    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    const db = new pg.Client({ connectionString: ctx.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query(
        `SELECT served_from FROM compliance_runs WHERE backup_id = $1 AND framework = 'hipaa' ORDER BY occurred_at`,
        [shortPasswordsWithMfa.id],
      );
      expect(rows.map((row) => row.served_from)).toEqual(['computed', 'stored']);
    } finally {
      await db.end();
    }
    const trail = await ctx.http
      .get(`/api/audit-events?action=compliance.checked&targetId=${shortPasswordsWithMfa.id}`)
      .set('Authorization', `Bearer ${auditor.token}`);
    expect(trail.status).toBe(200);
    const hipaa = (trail.body.events as Array<{ details: Json }>).filter(
      (e) => e.details.framework === 'hipaa',
    );
    expect(hipaa.map((e) => e.details.served_from)).toEqual(['stored', 'computed']);
  });

  it('refuses an unknown framework with a 400 that lists the six', async () => {
    const response = await check({ connectionId, framework: 'gdpr' });

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'validation_failed' });
    expect(response.body.error).toContain('soc2, hipaa, pci_dss, nist, iso27001, cis_controls');
  });

  it('answers 409 no_backup for a connection without a completed backup', async () => {
    const empty = await createConnection(ctx, admin.token, { baseUrl: org.sim.baseUrl, ...org.integration });
    const response = await check({ connectionId: empty, framework: 'soc2' });

    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({
      error: expect.stringContaining('no completed backup'),
      code: 'no_backup',
    });
  });

  it("answers 404 for another team's connection or backup, and 403 to roles without `compliance`", async () => {
    const stranger = await ctx.newClient({ role: 'admin' });
    const viewer = await ctx.newClient({ role: 'viewer', teamId: admin.teamId });
    const operator = await ctx.newClient({ role: 'operator', teamId: admin.teamId });

    expect((await check({ connectionId, framework: 'soc2' }, stranger)).status).toBe(404);
    const strangerConnection = await createConnection(ctx, stranger.token, {
      baseUrl: org.sim.baseUrl,
      ...org.integration,
    });
    expect(
      (await check({ connectionId: strangerConnection, framework: 'soc2', backupId: baseline.id }, stranger))
        .status,
    ).toBe(404);
    expect((await check({ connectionId, framework: 'soc2' }, viewer)).status).toBe(403);
    expect((await check({ connectionId, framework: 'soc2' }, operator)).status).toBe(403);
  });
});
