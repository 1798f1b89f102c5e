import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { AUDIT_RETENTION_DAYS, DirectoryAuditLog } from './directory-audit.js';
import { startEntraSimulator, type RunningEntraSimulator } from './simulator.js';
import { type GraphTestClient, graphClient } from './testing/graph-client.js';
import { blockLegacyAuthenticationPolicy } from './testing/policy-bodies.js';

const AUDITS = '/v1.0/auditLogs/directoryAudits';
const WRITER = ['Policy.ReadWrite.ConditionalAccess', 'Policy.Read.All', 'Group.ReadWrite.All'];

/** The directory audit (directory-audit.ts, write-auditor.ts, audit.routes.ts), as Graph clients see it. */
describe('Entra simulator: directory audit', () => {
  let sim: RunningEntraSimulator;
  let writer: GraphTestClient;
  let reader: GraphTestClient;
  let writerApp: { clientId: string; clientSecret: string };

  beforeAll(async () => {
    sim = await startEntraSimulator({ users: 6, groups: 2, seed: 3 });
    writerApp = sim.registerApp(WRITER);
    writer = await graphClient(sim, writerApp);
    reader = await graphClient(sim, ['AuditLog.Read.All']);
  });
  afterAll(async () => {
    await writer?.close();
    await reader?.close();
    await sim?.close();
  });

  it('logs a conditional access policy update in Graph’s shape, initiated by the calling app', async () => {
    const start = new Date().toISOString();
    const created = await writer.call(
      'POST',
      '/v1.0/identity/conditionalAccess/policies',
      blockLegacyAuthenticationPolicy(),
    );
    expect(created.status).toBe(201);
    const id = String(created.body.id);
    expect(
      (await writer.call('PATCH', `/v1.0/identity/conditionalAccess/policies/${id}`, { state: 'disabled' }))
        .status,
    ).toBe(204);

    const page = await reader.call('GET', `${AUDITS}?$filter=activityDateTime ge ${start}`);
    expect(page.status).toBe(200);
    const [update, add] = page.body.value;
    expect(add).toMatchObject({
      activityDisplayName: 'Add conditional access policy',
      operationType: 'Add',
      targetResources: [
        { id, modifiedProperties: [{ displayName: 'ConditionalAccessPolicy', oldValue: null }] },
      ],
    });
    expect(update).toEqual({
      id: expect.stringMatching(/^Directory_[0-9a-f-]{36}_\w{5}_\d+$/),
      category: 'Policy',
      correlationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      result: 'success',
      resultReason: '',
      activityDisplayName: 'Update conditional access policy',
      activityDateTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      loggedByService: 'Conditional Access',
      operationType: 'Update',
      initiatedBy: {
        app: {
          appId: writerApp.clientId,
          displayName: expect.any(String),
          servicePrincipalId: expect.stringMatching(/^[0-9a-f-]{36}$/),
          servicePrincipalName: null,
        },
        user: null,
      },
      targetResources: [
        {
          id,
          displayName: 'Block legacy authentication',
          type: 'Policy',
          userPrincipalName: null,
          modifiedProperties: [
            {
              displayName: 'ConditionalAccessPolicy',
              oldValue: expect.any(String),
              newValue: expect.any(String),
            },
          ],
        },
      ],
      additionalDetails: [],
    });
    const [change] = (
      update.targetResources as Array<{ modifiedProperties: Array<Record<string, string>> }>
    )[0].modifiedProperties;
    expect(JSON.parse(change.oldValue)).toMatchObject({ state: 'enabled' });
    expect(JSON.parse(change.newValue)).toMatchObject({ state: 'disabled' });
  });

  it('names the user an app acts as, and logs group membership and deletion', async () => {
    const [user] = sim.snapshot().user;
    const upn = String(user.data.userPrincipalName);
    const start = new Date().toISOString();
    sim.actAs(writerApp.clientId, upn, '198.51.100.23');
    try {
      const group = await writer.call('POST', '/v1.0/groups', {
        displayName: 'Backdoor admins',
        mailEnabled: false,
        mailNickname: 'backdoor',
        securityEnabled: true,
      });
      const groupId = String(group.body.id);
      expect(
        (
          await writer.call('POST', `/v1.0/groups/${groupId}/members/$ref`, {
            '@odata.id': `https://graph.microsoft.com/v1.0/directoryObjects/${user.id}`,
          })
        ).status,
      ).toBe(204);
      expect((await writer.call('DELETE', `/v1.0/groups/${groupId}`)).status).toBe(204);
      const page = await reader.call('GET', `${AUDITS}?$filter=activityDateTime ge ${start}`);
      expect(page.body.value.map((audit) => audit.activityDisplayName)).toEqual([
        'Delete group',
        'Add member to group',
        'Add group',
      ]);
      const member = page.body.value[1];
      expect(member).toMatchObject({
        category: 'GroupManagement',
        operationType: 'Assign',
        initiatedBy: {
          app: null,
          user: { id: user.id, userPrincipalName: upn, ipAddress: '198.51.100.23' },
        },
        targetResources: [
          {
            id: user.id,
            type: 'User',
            userPrincipalName: upn,
            modifiedProperties: [
              { displayName: 'Group.ObjectID', oldValue: null, newValue: JSON.stringify(groupId) },
              { displayName: 'Group.DisplayName', oldValue: null, newValue: '"Backdoor admins"' },
            ],
          },
          { id: groupId, type: 'Group', displayName: 'Backdoor admins' },
        ],
      });
    } finally {
      sim.actAs(writerApp.clientId, null);
    }
    expect(() => sim.actAs(writerApp.clientId, 'nobody@example.com')).toThrow(/no user/);
  });

  it('logs a method configuration change as an authentication methods policy update, on the policy', async () => {
    const start = new Date().toISOString();
    const admin = await graphClient(sim, ['Policy.ReadWrite.AuthenticationMethod']);
    try {
      const path = '/v1.0/policies/authenticationMethodsPolicy/authenticationMethodConfigurations/Fido2';
      expect((await admin.call('PATCH', path, { state: 'disabled' })).status).toBe(204);
    } finally {
      await admin.close();
    }
    const [audit] = (await reader.call('GET', `${AUDITS}?$filter=activityDateTime ge ${start}`)).body.value;
    expect(audit).toMatchObject({
      category: 'Policy',
      loggedByService: 'Authentication Methods',
      activityDisplayName: 'Authentication Methods Policy Update',
      targetResources: [{ id: 'authenticationMethodsPolicy', type: 'Policy' }],
    });
    const [change] = (
      audit.targetResources as Array<{ modifiedProperties: Array<Record<string, string>> }>
    )[0].modifiedProperties;
    const fido2 = (value: string) =>
      (
        JSON.parse(value) as { authenticationMethodConfigurations: Array<{ id: string; state: string }> }
      ).authenticationMethodConfigurations.find((c) => c.id === 'Fido2')?.state;
    expect([fido2(change.oldValue), fido2(change.newValue)]).toEqual(['enabled', 'disabled']);
  });

  it('pages with $top and @odata.nextLink, newest first, and refuses other filters', async () => {
    const start = new Date().toISOString();
    for (let i = 0; i < 5; i++) {
      const group = await writer.call('POST', '/v1.0/groups', {
        displayName: `Paged ${i}`,
        mailEnabled: false,
        mailNickname: `paged${i}`,
        securityEnabled: true,
      });
      expect(group.status).toBe(201);
    }
    const names: string[] = [];
    let next: string | undefined = `${AUDITS}?$filter=activityDateTime ge ${start}&$top=2`;
    let pages = 0;
    while (next) {
      const page = await reader.call('GET', next);
      expect(page.status).toBe(200);
      expect(page.body.value.length).toBeLessThanOrEqual(2);
      names.push(
        ...page.body.value.map((audit) =>
          String((audit.targetResources as Array<{ displayName: string }>)[0].displayName),
        ),
      );
      next = page.body['@odata.nextLink'] as string | undefined;
      pages++;
    }
    expect(pages).toBe(3);
    expect(names).toEqual(['Paged 4', 'Paged 3', 'Paged 2', 'Paged 1', 'Paged 0']);
    expect((await reader.call('GET', `${AUDITS}?$filter=category eq 'Policy'`)).status).toBe(400);
  });

  it('answers 403 without AuditLog.Read.All', async () => {
    const other = await graphClient(sim, ['Policy.Read.All']);
    try {
      expect((await other.call('GET', AUDITS)).body).toMatchObject({
        error: { code: 'Authorization_RequestDenied' },
      });
    } finally {
      await other.close();
    }
  });

  it('keeps 7 days without an Entra ID P1 or P2 plan and 30 with one', () => {
    let now = Date.parse('2026-06-01T00:00:00Z');
    let premium = false;
    const log = new DirectoryAuditLog(
      () => premium,
      () => now,
    );
    const entry = {
      category: 'UserManagement',
      activityDisplayName: 'Update user',
      loggedByService: 'Core Directory',
      operationType: 'Update',
      initiatedBy: { app: null, user: null },
      targetResources: [],
      additionalDetails: [],
    };
    log.record(entry, now - 10 * 86_400_000);
    log.record(entry, now - 6 * 86_400_000);
    expect(log.retentionDays).toBe(AUDIT_RETENTION_DAYS.free);
    expect(log.held()).toHaveLength(1);
    premium = true;
    expect(log.retentionDays).toBe(30);
    expect(log.held()).toHaveLength(2);
    now += 22 * 86_400_000;
    expect(log.held()).toHaveLength(1);
  });
});
