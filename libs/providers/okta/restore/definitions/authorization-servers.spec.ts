import { describe, expect, it } from '@jest/globals';
import { cassettesDir } from '@libs/simulators/okta/testing/fixture-paths.js';
import type { ProviderRestorer } from '@libs/providers/provider-restore.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';
import { pairedRecord } from '@libs/providers/testing/paired-record.js';
import { useRestoreTestOrg, type RestoreTestOrg } from '@libs/simulators/okta/testing/restore-test-org.js';

const TYPES = [
  'authorization_server',
  'authorization_server_scope',
  'authorization_server_claim',
  'authorization_server_policy',
  'authorization_server_policy_rule',
] as const satisfies readonly OktaResourceType[];

type Backup = Map<OktaResourceType, ResourceRecord[]>;
const lastPart = (id: string) => id.split(':').pop()!;
const byId = (id: string) => (record: ResourceRecord) => record.id === id;

/** Every record of the server `serverId` and what hangs off it, as a backup holds them. */
async function backUp(org: RestoreTestOrg, serverId: string): Promise<Backup> {
  const backup: Backup = new Map();
  for (const type of TYPES)
    backup.set(
      type,
      (await org.records(type)).filter((r) => r.id.split(':')[0] === serverId),
    );
  return backup;
}

/**
 * Restores a deleted server from its backup as the restore engine does: type by type, each
 * record rewritten through the ids of what was re-created, the ones Okta makes matched by natural
 * key instead of created, the rest created in `sequence` order. Fills `ids` (old -> new).
 */
async function restoreDeleted(
  org: RestoreTestOrg,
  sut: ProviderRestorer,
  backup: Backup,
  ids: Map<string, string>,
) {
  for (const type of TYPES) {
    const records = backup.get(type)!.map((record) => sut.rewrite(record, ids));
    const order = sut.sequence(type);
    if (order) records.sort(order);
    const live = await org.records(type);
    for (const record of records) {
      if (sut.managedBecause(record) !== null) {
        expect(pairedRecord(live, sut, record)).toBeDefined();
        continue;
      }
      const result = await sut.apply({ action: 'create', record, with: [] });
      ids.set(lastPart(record.id), lastPart(result.id));
    }
  }
}

/** Expects every record of `backup` Okta does not make to be live again as backed up (through `ids`). */
async function expectRestored(
  org: RestoreTestOrg,
  sut: ProviderRestorer,
  backup: Backup,
  ids: Map<string, string>,
) {
  for (const type of TYPES)
    for (const backedUp of backup.get(type)!.filter((record) => sut.managedBecause(record) === null)) {
      const wanted = sut.rewrite(backedUp, ids);
      const live = pairedRecord(await org.records(type), sut, wanted);
      expect(live?.id).toBe(wanted.id);
      expect(live?.data.status).toBe(backedUp.data.status);
      expect(live && sut.fingerprint(live)).toBe(sut.fingerprint(wanted));
      expect(live && sut.naturalKey(live)).toBe(sut.naturalKey(wanted));
    }
}

async function deleteServer(org: RestoreTestOrg, serverId: string): Promise<void> {
  await org.call('POST', `/api/v1/authorizationServers/${serverId}/lifecycle/deactivate`);
  await org.call('DELETE', `/api/v1/authorizationServers/${serverId}`);
}

/** Restore writes of the authorization servers category against a generated org. */
describe('authorization server restore definitions (simulator over HTTPS)', () => {
  let org: RestoreTestOrg;
  let sut: ProviderRestorer;
  const servers = '/api/v1/authorizationServers';

  useRestoreTestOrg({ users: 30, groups: 5, apps: 4, seed: 11 }, (started) => {
    org = started;
    sut = org.restorer();
  });

  it("restores a deleted server with its scopes, claims, policies and rules; Okta's own scopes come with it", async () => {
    const [server] = await org.records('authorization_server');
    const backup = await backUp(org, server.id);
    expect(backup.get('authorization_server_policy_rule')!.length).toBeGreaterThan(1);
    expect(backup.get('authorization_server_scope')!.some((s) => sut.managedBecause(s) !== null)).toBe(true);
    await deleteServer(org, server.id);
    const ids = new Map<string, string>();

    await restoreDeleted(org, sut, backup, ids);

    expect(ids.get(server.id)).not.toBe(server.id);
    await expectRestored(org, sut, backup, ids);
  });

  it('brings back an INACTIVE server INACTIVE, and puts back a changed one', async () => {
    const created = await org.call('POST', servers, { name: 'Partner API', audiences: ['api://partners'] });
    await org.call('POST', `${servers}/${String(created.id)}/lifecycle/deactivate`);
    const [inactive] = (await backUp(org, String(created.id))).get('authorization_server')!;
    await org.call('DELETE', `${servers}/${inactive.id}`);

    const result = await sut.apply({ action: 'create', record: inactive, with: [] });

    const recreated = (await org.find('authorization_server', byId(result.id)))!;
    expect(recreated.data.status).toBe('INACTIVE');
    expect(sut.fingerprint(recreated)).toBe(sut.fingerprint(inactive));

    await org.call('PUT', `${servers}/${result.id}`, { ...recreated.data, audiences: ['api://elsewhere'] });
    await org.call('POST', `${servers}/${result.id}/lifecycle/activate`);
    const changed = (await org.find('authorization_server', byId(result.id)))!;
    const wanted = sut.rewrite(inactive, new Map([[inactive.id, result.id]]));

    await sut.apply({ action: 'update', record: wanted, live: sut.live(changed) });

    const restored = (await org.find('authorization_server', byId(result.id)))!;
    expect(restored.data).toMatchObject({ status: 'INACTIVE', audiences: ['api://partners'] });
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(wanted));
  });

  it('deletes a server (prune) by deactivating it first', async () => {
    const created = await org.call('POST', servers, { name: 'Retired API', audiences: ['api://retired'] });
    const live = (await org.find('authorization_server', byId(String(created.id))))!;
    const deactivations = () =>
      org.sim.requestLog().byEndpoint[
        'POST /api/v1/authorizationServers/{authServerId}/lifecycle/deactivate'
      ] ?? 0;
    const before = deactivations();

    await sut.apply({ action: 'delete', type: 'authorization_server', live: sut.live(live) });

    expect(await org.find('authorization_server', byId(live.id))).toBeUndefined();
    expect(deactivations()).toBe(before + 1);
  });

  it("puts back a claim's status through its body, and re-creates an INACTIVE claim INACTIVE", async () => {
    const [backedUp] = (await org.records('authorization_server_claim')).filter(
      (c) => sut.managedBecause(c) === null,
    );
    const [serverId, claimId] = backedUp.id.split(':');
    await org.call('PUT', `${servers}/${serverId}/claims/${claimId}`, {
      ...backedUp.data,
      status: 'INACTIVE',
    });
    const changed = (await org.find('authorization_server_claim', byId(backedUp.id)))!;
    expect(changed.data.status).toBe('INACTIVE');

    await sut.apply({ action: 'update', record: backedUp, live: sut.live(changed) });
    expect((await org.find('authorization_server_claim', byId(backedUp.id)))!.data.status).toBe('ACTIVE');

    await org.call('DELETE', `${servers}/${serverId}/claims/${claimId}`);
    const result = await sut.apply({ action: 'create', record: changed, with: [] });
    const recreated = (await org.find('authorization_server_claim', byId(result.id)))!;
    expect(recreated.data.status).toBe('INACTIVE');
    expect(sut.fingerprint(recreated)).toBe(sut.fingerprint(changed));
  });

  it('restores policies and their rules one at a time in priority order, INACTIVE ones INACTIVE', async () => {
    const created = await org.call('POST', servers, { name: 'Orders API', audiences: ['api://orders'] });
    const serverId = String(created.id);
    for (const priority of [1, 2, 3]) {
      const policy = await org.call('POST', `${servers}/${serverId}/policies`, {
        name: `Clients ${priority}`,
        priority,
        type: 'OAUTH_AUTHORIZATION_POLICY',
        conditions: { clients: { include: ['ALL_CLIENTS'] } },
      });
      const policyPath = `${servers}/${serverId}/policies/${String(policy.id)}`;
      if (priority === 2) await org.call('POST', `${policyPath}/lifecycle/deactivate`);
      for (const rulePriority of [1, 2]) {
        const rule = await org.call('POST', `${policyPath}/rules`, {
          name: `Rule ${rulePriority}`,
          priority: rulePriority,
          type: 'RESOURCE_ACCESS',
          conditions: { grantTypes: { include: ['client_credentials'] }, scopes: { include: ['*'] } },
          actions: { token: { accessTokenLifetimeMinutes: 5 * rulePriority } },
        });
        if (rulePriority === 2)
          await org.call('POST', `${policyPath}/rules/${String(rule.id)}/lifecycle/deactivate`);
      }
    }
    const backup = await backUp(org, serverId);
    const policies = [...backup.get('authorization_server_policy')!].reverse();
    const rules = [...backup.get('authorization_server_policy_rule')!].reverse();
    await deleteServer(org, serverId);
    const ids = new Map<string, string>();

    expect(
      backup.get('authorization_server_policy')!.filter((p) => p.data.status === 'INACTIVE'),
    ).toHaveLength(1);
    await restoreDeleted(org, sut, backup, ids);

    const priorities = (records: ResourceRecord[]) => records.map((r) => Number(r.data.priority));
    expect(priorities(policies.sort(sut.sequence('authorization_server_policy')!))).toEqual([1, 2, 3]);
    expect(priorities(rules.sort(sut.sequence('authorization_server_policy_rule')!))).toEqual([
      1, 2, 1, 2, 1, 2,
    ]);
    await expectRestored(org, sut, backup, ids);
  });

  it('follows a re-created token inline hook into the rules that call it', async () => {
    const [rule] = await org.records('authorization_server_policy_rule');
    const [serverId, policyId, ruleId] = rule.id.split(':');
    const hook = {
      channel: { type: 'HTTP', version: '1.0.0', config: { uri: 'https://hooks.example.com/t' } },
    };
    const old = await org.call('POST', '/api/v1/inlineHooks', {
      name: 'Old',
      type: 'com.okta.oauth2.tokens.transform',
      version: '1.0.0',
      ...hook,
    });
    const calling = {
      ...rule.data,
      actions: { token: { ...(rule.data.actions as { token: object }).token, inlineHook: { id: old.id } } },
    };
    await org.call('PUT', `${servers}/${serverId}/policies/${policyId}/rules/${ruleId}`, calling);
    const backedUp = (await org.find('authorization_server_policy_rule', byId(rule.id)))!;
    const recreated = await org.call('POST', '/api/v1/inlineHooks', {
      name: 'New',
      type: 'com.okta.oauth2.tokens.transform',
      version: '1.0.0',
      ...hook,
    });
    await org.call('DELETE', `${servers}/${serverId}/policies/${policyId}/rules/${ruleId}`);

    const record = sut.rewrite(backedUp, new Map([[String(old.id), String(recreated.id)]]));
    const result = await sut.apply({ action: 'create', record, with: [] });

    const restored = (await org.find('authorization_server_policy_rule', byId(result.id)))!;
    expect(restored.data.actions).toMatchObject({ token: { inlineHook: { id: recreated.id } } });
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(record));
  });
});

const recorded = cassettesDir();

/** Authorization servers recorded from real orgs. */
(recorded ? describe : describe.skip)('authorization server restore definitions, recorded servers', () => {
  let org: RestoreTestOrg;
  let sut: ProviderRestorer;

  useRestoreTestOrg({ fixturesDir: recorded }, (started) => {
    org = started;
    sut = org.restorer();
  });

  it("leaves the default server and Okta's system scopes and claims to Okta", async () => {
    const defaultServer = (await org.find('authorization_server', (s) => s.data.default === true))!;
    expect(sut.managedBecause(defaultServer)).toMatch(/default/);
    const openid = (await org.find('authorization_server_scope', (s) => s.data.name === 'openid'))!;
    expect(sut.managedBecause(openid)).toMatch(/OpenID Connect/);
    const sub = (await org.find('authorization_server_claim', (c) => c.data.name === 'sub'))!;
    expect(sut.managedBecause(sub)).not.toBeNull();
    const custom = (await org.find('authorization_server_scope', (s) => s.data.system === false))!;
    expect(sut.managedBecause(custom)).toBeNull();
  });
});

/** The recorded org (classic-00) whose authorization server policy names an OIDC client. */
(recorded ? describe : describe.skip)('authorization server restore definitions, recorded client', () => {
  let org: RestoreTestOrg;
  let sut: ProviderRestorer;

  useRestoreTestOrg({ fixturesDir: recorded, fixtureOrg: 'classic-00' }, (started) => {
    org = started;
    sut = org.restorer();
  });

  it('restores a server whose policy names an OIDC client re-created first: the policy names the new client', async () => {
    const policy = (await org.records('authorization_server_policy')).find((p) =>
      JSON.stringify(p.data.conditions).includes('0oa'),
    )!;
    const serverId = policy.id.split(':')[0];
    const clientId = (policy.data.conditions as { clients: { include: string[] } }).clients.include[0];
    const client = (await org.find('app', byId(clientId)))!;
    const backup = await backUp(org, serverId);
    await deleteServer(org, serverId);
    await org.call('POST', `/api/v1/apps/${clientId}/lifecycle/deactivate`);
    await org.call('DELETE', `/api/v1/apps/${clientId}`);
    const app = await sut.apply({ action: 'create', record: client, with: [] });
    const ids = new Map([[clientId, app.id]]);

    await restoreDeleted(org, sut, backup, ids);

    const restored = (await org.find('authorization_server_policy', byId(sut.rewrite(policy, ids).id)))!;
    expect(restored.data.conditions).toEqual({ clients: { include: [app.id] } });
    await expectRestored(org, sut, backup, ids);
  });
});
