import { describe, expect, it } from '@jest/globals';
import type { LiveResource, ProviderRestorer, RestoreWrite } from '@libs/providers/provider-restore.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';
import { pairedRecord } from '@libs/providers/testing/paired-record.js';
import { useRestoreTestOrg, type RestoreTestOrg } from '@libs/simulators/okta/testing/restore-test-org.js';

/** Restore writes of policies and their rules against the simulator, priorities included. */
describe('policy restore definitions (simulator over HTTPS)', () => {
  let org: RestoreTestOrg;
  let sut: ProviderRestorer;
  const live = (record: ResourceRecord): LiveResource => sut.live(record);
  const policyNamed = (type: string, name: string) =>
    org.find('policy', (p) => p.data.type === type && p.name === name);
  const rulesOf = async (policyId: string) =>
    (await org.records('policy_rule')).filter((rule) => rule.id.startsWith(`${policyId}:`));
  const priorities = (records: ResourceRecord[]) =>
    Object.fromEntries(records.map((record) => [record.name, record.data.priority]));

  /**
   * Plans and applies the backup's records of one type as the restore engine does: each paired
   * with a live record (pairedRecord) and created when unpaired. A type with a
   * `sequence` is written whole, in that order, once any record differs: Okta renumbers
   * priorities as writes land, so a record that matched when planned may have moved by the time
   * the others are written. Returns the ids of created objects.
   */
  async function restore(backedUp: ResourceRecord[], ids = new Map<string, string>()) {
    const type = backedUp[0].type as OktaResourceType;
    const sequence = sut.sequence(type);
    expect(sequence).not.toBeNull();
    const records = backedUp.map((record) => sut.rewrite(record, ids)).sort(sequence!);
    const current = await org.records(type);
    const matched = records.map((record) => pairedRecord(current, sut, record));
    if (records.every((record, i) => matched[i] && sut.fingerprint(matched[i]) === sut.fingerprint(record)))
      return ids;
    for (const [i, record] of records.entries()) {
      const found = matched[i];
      const write: RestoreWrite = found
        ? { action: 'update', record, live: live(found) }
        : { action: 'create', record, with: [] };
      const result = await sut.apply(write);
      if (!found) ids.set(record.id.split(':').pop()!, result.id.split(':').pop()!);
    }
    return ids;
  }

  useRestoreTestOrg({ users: 10, groups: 4, apps: 2, seed: 41 }, (started) => {
    org = started;
    sut = org.restorer();
  });

  it('puts policies back in their order after the first was deleted and the others moved up', async () => {
    for (const [name, priority] of [
      ['Contractor passwords', 2],
      ['Service passwords', 3],
    ] as const)
      await org.call('POST', '/api/v1/policies', { type: 'PASSWORD', name, priority, settings: {} });
    const backedUp = (await org.records('policy')).filter((p) => p.data.type === 'PASSWORD');
    expect(priorities(backedUp)).toEqual({
      'Privileged accounts': 1,
      'Contractor passwords': 2,
      'Service passwords': 3,
      'Default Policy': 4,
    });
    const privileged = backedUp.find((p) => p.name === 'Privileged accounts')!;
    const backedUpRules = await rulesOf(privileged.id);
    await org.call('DELETE', `/api/v1/policies/${privileged.id}`);
    const service = backedUp.find((p) => p.name === 'Service passwords')!;
    await org.call('PUT', `/api/v1/policies/${service.id}`, {
      ...service.data,
      priority: 1,
      description: 'x',
    });

    const ids = await restore(backedUp);
    await restore(backedUpRules, ids);

    const now = (await org.records('policy')).filter((p) => p.data.type === 'PASSWORD');
    expect(priorities(now)).toEqual(priorities(backedUp));
    for (const policy of backedUp) {
      const restored = now.find((p) => p.name === policy.name)!;
      expect(sut.fingerprint(restored)).toBe(sut.fingerprint(sut.rewrite(policy, ids)));
    }
    const rules = await rulesOf(ids.get(privileged.id)!);
    expect(rules.map((rule) => [rule.name, rule.data.status, rule.data.priority])).toEqual(
      backedUpRules.map((rule) => [rule.name, rule.data.status, rule.data.priority]),
    );
  });

  it('creates policies INACTIVE and activates them once written, so no half-restored policy applies', async () => {
    const policy = (await policyNamed('OKTA_SIGN_ON', 'Contractor sign-on'))!;
    const rules = await rulesOf(policy.id);
    await org.call('DELETE', `/api/v1/policies/${policy.id}`);
    const activations = () =>
      org.sim.requestLog().byEndpoint['POST /api/v1/policies/{policyId}/lifecycle/activate'] ?? 0;
    const before = activations();

    const created = await sut.apply({ action: 'create', record: policy, with: [] });

    expect(activations()).toBe(before + 1);
    const restored = (await org.find('policy', (p) => p.id === created.id))!;
    expect(restored.data.status).toBe('ACTIVE');
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(policy));
    await restore(rules, new Map([[policy.id, created.id]]));
    expect((await rulesOf(created.id)).map((rule) => rule.name)).toEqual(rules.map((rule) => rule.name));
  });

  it('re-creates an INACTIVE rule INACTIVE from the start, with no lifecycle operation', async () => {
    const policy = (await policyNamed('OKTA_SIGN_ON', 'Contractor sign-on'))!;
    const dormant = await org.call('POST', `/api/v1/policies/${policy.id}/rules?activate=false`, {
      name: 'Dormant',
      type: 'SIGN_ON',
      priority: 1,
      actions: { signon: { access: 'DENY' } },
    });
    const rule = (await org.find('policy_rule', (r) => r.id === `${policy.id}:${String(dormant.id)}`))!;
    await org.call('DELETE', `/api/v1/policies/${policy.id}/rules/${rule.id.split(':')[1]}`);
    const lifecycle = () => {
      const requests = org.sim.requestLog().byEndpoint;
      const path = 'POST /api/v1/policies/{policyId}/rules/{ruleId}/lifecycle';
      return (requests[`${path}/activate`] ?? 0) + (requests[`${path}/deactivate`] ?? 0);
    };
    const before = lifecycle();

    const created = await sut.apply({ action: 'create', record: rule, with: [] });

    const restored = (await org.find('policy_rule', (r) => r.id === created.id))!;
    expect(restored.data.status).toBe('INACTIVE');
    expect(lifecycle()).toBe(before);
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(rule));
  });

  it('puts rules back in their order beside a catch-all rule, which stays at 99', async () => {
    const policy = (await policyNamed('ACCESS_POLICY', 'Sensitive apps'))!;
    for (const [name, priority] of [
      ['Managers', 2],
      ['Contractors', 3],
    ] as const)
      await org.call('POST', `/api/v1/policies/${policy.id}/rules`, {
        name,
        priority,
        type: 'ACCESS_POLICY',
        actions: { appSignOn: { access: 'ALLOW' } },
      });
    const backedUp = await rulesOf(policy.id);
    const deny = backedUp.find((rule) => rule.name === 'Deny blocked countries')!;
    const contractors = backedUp.find((rule) => rule.name === 'Contractors')!;
    await org.call('DELETE', `/api/v1/policies/${deny.id.replace(':', '/rules/')}`);
    await org.call('PUT', `/api/v1/policies/${contractors.id.replace(':', '/rules/')}`, {
      ...contractors.data,
      priority: 1,
    });

    await restore(backedUp);

    const now = await rulesOf(policy.id);
    expect(priorities(now)).toEqual({
      'Deny blocked countries': 1,
      Managers: 2,
      Contractors: 3,
      'Catch-all Rule': 99,
    });
  });

  it('puts back a deactivated and renamed rule ACTIVE, matched by id', async () => {
    const policy = (await policyNamed('ACCESS_POLICY', 'Sensitive apps'))!;
    const rule = (await rulesOf(policy.id)).find((r) => r.name === 'Managers')!;
    const path = `/api/v1/policies/${rule.id.replace(':', '/rules/')}`;
    await org.call('PUT', path, { ...rule.data, name: 'Managers (old)' });
    await org.call('POST', `${path}/lifecycle/deactivate`);
    const changed = (await org.find('policy_rule', (r) => r.id === rule.id))!;

    await sut.apply({ action: 'update', record: rule, live: live(changed) });

    const restored = (await org.find('policy_rule', (r) => r.id === rule.id))!;
    expect(restored.data).toMatchObject({ name: 'Managers', status: 'ACTIVE', priority: rule.data.priority });
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(rule));
  });

  it("finds the catch-all rule Okta gives a re-created app sign-in policy and puts the backup's actions on it", async () => {
    const policy = (await policyNamed('ACCESS_POLICY', 'Sensitive apps'))!;
    const rules = await rulesOf(policy.id);
    const catchAll = rules.find((rule) => rule.data.system === true)!;
    await org.call('DELETE', `/api/v1/policies/${policy.id}`);

    const ids = await restore([policy]);
    const newPolicyId = ids.get(policy.id)!;
    const okta = (await rulesOf(newPolicyId)).find((rule) => rule.data.system === true)!;
    expect(okta.id).not.toBe(`${newPolicyId}:${catchAll.id.split(':')[1]}`);
    expect(sut.managedBecause(catchAll)).toMatch(/catch-all/);
    await restore(rules, ids);

    const now = await rulesOf(newPolicyId);
    expect(now).toHaveLength(rules.length);
    expect(now.find((rule) => rule.id === okta.id)?.data.actions).toEqual(catchAll.data.actions);
    for (const rule of rules) {
      const restored = now.find((candidate) => candidate.name === rule.name)!;
      expect(sut.fingerprint(restored)).toBe(sut.fingerprint(sut.rewrite(rule, ids)));
    }
  });

  it('changes the default policy and its rule back, but never creates nor deletes them', async () => {
    const defaults = (await org.records('policy')).filter((p) => p.data.system === true);
    const password = defaults.find((p) => p.data.type === 'PASSWORD')!;
    const [defaultRule] = await rulesOf(password.id);
    await org.call('PUT', `/api/v1/policies/${password.id}`, {
      ...password.data,
      settings: { password: { complexity: { minLength: 4 } } },
    });
    await org.call('PUT', `/api/v1/policies/${defaultRule.id.replace(':', '/rules/')}`, {
      ...defaultRule.data,
      actions: { passwordChange: { access: 'DENY' } },
    });

    await restore([password]);
    await restore([defaultRule]);

    expect(sut.fingerprint((await org.find('policy', (p) => p.id === password.id))!)).toBe(
      sut.fingerprint(password),
    );
    expect(sut.fingerprint((await org.find('policy_rule', (r) => r.id === defaultRule.id))!)).toBe(
      sut.fingerprint(defaultRule),
    );
    for (const policy of defaults) expect(sut.managedBecause(policy)).toMatch(/default policy/);
    expect(sut.managedBecause(defaultRule)).toMatch(/default and catch-all rules/);
  });

  it('leaves the one rule of a user profile policy to Okta', async () => {
    const profile = (await org.find('policy', (p) => p.data.type === 'PROFILE_ENROLLMENT'))!;
    const [rule] = await rulesOf(profile.id);
    expect(sut.managedBecause({ ...rule, data: { ...rule.data, system: false } })).toMatch(
      /one rule of a PROFILE_ENROLLMENT policy/,
    );
  });

  it('deletes a rule and a policy on prune', async () => {
    const policy = (await policyNamed('PASSWORD', 'Service passwords'))!;
    const contractor = (await policyNamed('OKTA_SIGN_ON', 'Contractor sign-on'))!;
    const [rule] = await rulesOf(contractor.id);

    await sut.apply({ action: 'delete', type: 'policy_rule', live: live(rule) });
    await sut.apply({ action: 'delete', type: 'policy', live: live(policy) });

    expect((await rulesOf(contractor.id)).map((r) => r.id)).not.toContain(rule.id);
    expect(await org.find('policy', (p) => p.id === policy.id)).toBeUndefined();
  });
});
