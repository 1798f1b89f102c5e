import { describe, expect, it } from '@jest/globals';

import { snapshotOf } from '@libs/simulators/okta/snapshot.js';
import { OrgState } from '@libs/simulators/okta/store/org-state.js';
import { generateOrg, type GeneratorSizes } from './generate-org.js';

const BASE = 'https://127.0.0.1:1';

function generated(sizes: Partial<GeneratorSizes> = {}): OrgState {
  const state = new OrgState();
  generateOrg(state, { users: 50, groups: 10, apps: 5, seed: 1, ...sizes }, BASE);
  return state;
}

describe('generateOrg', () => {
  it('builds the same org from the same seed, and another from another seed', () => {
    const a = snapshotOf(generated({ seed: 42 }), BASE);
    expect(snapshotOf(generated({ seed: 42 }), BASE)).toEqual(a);
    expect(snapshotOf(generated({ seed: 43 }), BASE).user).not.toEqual(a.user);
  });

  it('holds users in every status with unique logins', () => {
    const { user } = snapshotOf(generated(), BASE);
    expect(new Set(user.map((u) => u.data.status))).toEqual(
      new Set([
        'ACTIVE',
        'STAGED',
        'PROVISIONED',
        'DEPROVISIONED',
        'SUSPENDED',
        'LOCKED_OUT',
        'PASSWORD_EXPIRED',
        'RECOVERY',
      ]),
    );
    expect(new Set(user.map((u) => u.name)).size).toBe(user.length);
  });

  it('references only objects that exist: rule targets, policy groups and zones, assignments', () => {
    const snapshot = snapshotOf(generated({ users: 300, groups: 12 }), BASE);
    const groups = new Set(snapshot.group.map((g) => g.id));
    const zones = new Set(snapshot.network_zone.map((z) => z.id));
    const users = new Set(snapshot.user.map((u) => u.id));
    for (const rule of snapshot.group_rule) {
      const { groupIds } = (rule.data.actions as { assignUserToGroups: { groupIds: string[] } })
        .assignUserToGroups;
      for (const id of groupIds) expect(groups).toContain(id);
      for (const id of String(
        (rule.data.conditions as { expression: { value: string } }).expression.value,
      ).match(/00g\w{17}/g) ?? [])
        expect(groups).toContain(id);
    }
    const text = JSON.stringify([snapshot.policy, snapshot.policy_rule]);
    for (const id of text.match(/00g\w{17}/g) ?? []) expect(groups).toContain(id);
    for (const id of text.match(/nzo\w{17}/g) ?? []) expect(zones).toContain(id);
    expect(text.match(/nzo\w{17}/g)?.length).toBeGreaterThan(0);
    for (const assignment of snapshot.app_user_assignment) expect(users).toContain(assignment.data.id);
    for (const membership of snapshot.group_membership) expect(users).toContain(membership.data.userId);
    expect(snapshot.group_rule.length).toBeGreaterThanOrEqual(4);
    expect(new Set(snapshot.policy.map((p) => p.data.type))).toEqual(
      new Set([
        'OKTA_SIGN_ON',
        'PASSWORD',
        'MFA_ENROLL',
        'ACCESS_POLICY',
        'PROFILE_ENROLLMENT',
        'IDP_DISCOVERY',
      ]),
    );
    expect(snapshot.authorization_server_policy_rule.length).toBeGreaterThan(0);
  });

  it('limits standard roles to targets: a help desk admin, the IT group admins and an app admin', () => {
    const snapshot = snapshotOf(generated(), BASE);
    const byRole = (roleType: string) =>
      snapshot.admin_role_target.filter((t) => t.data.roleType === roleType);
    const groups = new Set(snapshot.group.map((g) => g.id));
    const assignments = new Set(snapshot.admin_role_assignment.map((a) => a.id));

    expect(byRole('HELP_DESK_ADMIN')).toHaveLength(1);
    expect(byRole('USER_ADMIN').map((t) => t.data.assignmentType)).toEqual(['GROUP', 'GROUP']);
    for (const target of [...byRole('HELP_DESK_ADMIN'), ...byRole('USER_ADMIN')])
      expect(groups).toContain(target.data.groupId);
    expect(byRole('APP_ADMIN').map((t) => [t.id.split(':')[2], t.name])).toEqual([
      [snapshot.app[0].id, snapshot.app[0].name],
      ['catalog.facebook', 'Facebook'],
    ]);
    for (const target of snapshot.admin_role_target)
      expect(assignments).toContain(target.id.split(':').slice(0, 2).join(':'));
  });

  it('generates 200,000 users in a few seconds', () => {
    const started = performance.now();
    const state = generated({ users: 200_000, groups: 50, apps: 5 });
    const seconds = (performance.now() - started) / 1000;
    expect(state.users.size).toBe(200_000);
    // About 3 s on an idle machine; the bound leaves room for a loaded CI runner.
    expect(seconds).toBeLessThan(25);
  });
});
