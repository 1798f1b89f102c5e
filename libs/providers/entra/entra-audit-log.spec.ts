import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startEntraSimulator, type RunningEntraSimulator } from '@libs/simulators/entra/index.js';
import type { AuditEntry } from '@libs/simulators/entra/directory-audit.js';
import { scubaGearFile } from '@libs/simulators/entra/testing/fixture-paths.js';
import { graphCall, graphClient } from '@libs/simulators/entra/testing/graph-client.js';
import { blockLegacyAuthenticationPolicy } from '@libs/simulators/entra/testing/policy-bodies.js';
import { LogWindowExceededError, ProviderAuthError } from '@libs/providers/provider-errors.js';

import { EntraConnector } from './entra-connector.js';
import { entraDriftSeverity } from './entra-drift.js';
import { entraBackupPermissions } from './entra-resource-catalog.js';
import { AUDIT_LOG_PERMISSION } from './entra-audit-log.js';

const DAY_MS = 86_400_000;

function entry(category: string, activityDisplayName: string): AuditEntry {
  return {
    category,
    activityDisplayName,
    loggedByService: 'Core Directory',
    operationType: 'Update',
    initiatedBy: { app: null, user: null },
    targetResources: [],
    additionalDetails: [],
  };
}

/** The connector's read of Graph's directory audit (entra-audit-log.ts, entra-drift.ts). */
describe('EntraConnector: directory audit and drift', () => {
  let sim: RunningEntraSimulator;
  const connectors: EntraConnector[] = [];
  const connector = (target = sim, roles = [...entraBackupPermissions(), AUDIT_LOG_PERMISSION]) => {
    const entra = new EntraConnector({
      graphUrl: target.baseUrl,
      tenantId: target.tenantId,
      ...target.registerApp(roles),
      allowedHosts: ['127.0.0.1'],
      caCertPem: target.caCertPem,
    });
    connectors.push(entra);
    return entra;
  };
  const all = async <T>(items: AsyncIterable<T>): Promise<T[]> => {
    const out: T[] = [];
    for await (const item of items) out.push(item);
    return out;
  };

  beforeAll(async () => {
    sim = await startEntraSimulator({ users: 5, groups: 2, seed: 9 });
  });
  afterAll(async () => {
    for (const entra of connectors) await entra.close();
    await sim?.close();
  });

  it('reads every record since an instant through @odata.nextLink pages, as Graph answers them', async () => {
    const start = Date.now() - 60_000;
    for (let i = 0; i < 1_200; i++) sim.audits.record(entry('UserManagement', 'Update user'), start + i);
    sim.audits.record(entry('UserManagement', 'Update user'), start - 1);
    const entra = connector();
    const records = await all(entra.readDirectoryAudits(new Date(start).toISOString()));
    expect(records).toHaveLength(1_200);
    expect(records[0]).toMatchObject({ activityDisplayName: 'Update user', result: 'success' });
    // $top=999: two pages.
    expect(entra.stats().byEndpoint['GET /v1.0/auditLogs/directoryAudits']).toBe(2);
  });

  it('counts a conditional access change as critical drift and leaves sign-in activity out', async () => {
    const since = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const roles = ['Policy.ReadWrite.ConditionalAccess', 'Policy.Read.All'];
    const created = await graphCall(
      sim,
      roles,
      'POST',
      '/identity/conditionalAccess/policies',
      blockLegacyAuthenticationPolicy('enabledForReportingButNotEnforced'),
    );
    expect(created.status).toBe(201);
    sim.audits.record(entry('Authentication', 'Sign-in activity'));
    const changes = await all(connector().configurationChangesSince(since));
    expect(changes).toEqual([
      { eventType: 'Add conditional access policy', severity: 'critical', published: expect.any(String) },
    ]);
  });

  it('maps activities to the readiness severities', () => {
    expect(entraDriftSeverity('Policy', 'Update conditional access policy')).toBe('critical');
    expect(entraDriftSeverity('Policy', 'Authentication Methods Policy Update')).toBe('critical');
    expect(entraDriftSeverity('Policy', 'Update authorization policy')).toBe('critical');
    expect(entraDriftSeverity('RoleManagement', 'Add member to role')).toBe('critical');
    expect(entraDriftSeverity('Policy', 'Update named location')).toBe('high');
    expect(entraDriftSeverity('ApplicationManagement', 'Add service principal')).toBe('high');
    expect(entraDriftSeverity('GroupManagement', 'Add member to group')).toBe('medium');
    expect(entraDriftSeverity('UserManagement', 'Update user')).toBe('low');
    expect(entraDriftSeverity('Device', 'Update device')).toBeNull();
  });

  it('refuses a since older than the 7 days a tenant without Entra ID P1 or P2 keeps, naming the oldest instant held', async () => {
    const entra = connector();
    expect(await entra.auditLogRetentionDays()).toBe(7);
    const since = new Date(Date.now() - 8 * DAY_MS).toISOString();
    const error = await all(entra.configurationChangesSince(since)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LogWindowExceededError);
    expect(error).toMatchObject({ code: 'since_too_old' });
    const held = Date.parse((error as LogWindowExceededError).heldSince);
    expect(Math.abs(held - (Date.now() - 7 * DAY_MS))).toBeLessThan(60_000);
  });

  it('attributes a write to the user the audit names, within the window', async () => {
    const since = new Date().toISOString();
    const writer = sim.registerApp(['Policy.Read.All', 'Policy.ReadWrite.ConditionalAccess']);
    const [user] = sim.snapshot().user;
    sim.actAs(writer.clientId, String(user.data.userPrincipalName), '192.0.2.8');
    const client = await graphClient(sim, writer);
    const created = await client
      .call('POST', '/v1.0/identity/conditionalAccess/policies', blockLegacyAuthenticationPolicy('disabled'))
      .finally(() => client.close());
    expect(created.status).toBe(201);
    const entra = connector();
    const until = new Date(Date.now() + 1000).toISOString();
    const entries = await all(entra.readChangeAttribution(since, until));
    expect(entries).toEqual([
      expect.objectContaining({
        targetId: String(created.body.id),
        resourceType: 'conditional_access_policy',
        eventType: 'Add conditional access policy',
        actor: expect.objectContaining({ id: user.id, type: 'user', ipAddress: '192.0.2.8' }),
        byThisService: false,
      }),
    ]);
    expect(await all(entra.readChangeAttribution(since, since))).toEqual([]);
  });

  it('answers ProviderAuthError naming AuditLog.Read.All without it, Directory.Read.All not being enough', async () => {
    const entra = connector(sim, ['Organization.Read.All', 'Directory.Read.All']);
    const now = new Date().toISOString();
    await expect(all(entra.readDirectoryAudits(now))).rejects.toThrow(
      new ProviderAuthError(
        'The app registration lacks the application permission AuditLog.Read.All (Microsoft Graph, admin consent granted) that reading the directory audit log needs',
      ),
    );
    await expect(all(entra.readChangeAttribution(now, now))).rejects.toBeInstanceOf(ProviderAuthError);
  });

  (scubaGearFile() ? it : it.skip)(
    'reads 30 days of audit from a tenant with Entra ID P1 or P2',
    async () => {
      const premium = await startEntraSimulator({ scubaGearFile: scubaGearFile(), users: 2, groups: 1 });
      try {
        expect(await connector(premium).auditLogRetentionDays()).toBe(30);
        const since = new Date(Date.now() - 20 * DAY_MS).toISOString();
        expect(await all(connector(premium).configurationChangesSince(since))).toEqual([]);
      } finally {
        await premium.close();
      }
    },
  );
});
