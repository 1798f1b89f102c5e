import { describe, expect, it } from '@jest/globals';
import type { LiveResource, ProviderRestorer } from '@libs/providers/provider-restore.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import { useRestoreTestOrg, type RestoreTestOrg } from '@libs/simulators/okta/testing/restore-test-org.js';
import type { RestoreTypeSummary } from './restore-types.js';
import { ItemLog, type RestoreItem } from './items.js';
import { emptyPlan, type TypePlan } from './planner.js';
import { RestorePruner } from './pruner.js';

/** A plan that keeps `matched` and prunes `unmatched` (what the planner makes of a backup lacking them). */
function plan(type: string, matched: LiveResource[], unmatched: LiveResource[]): TypePlan {
  return { ...emptyPlan(type), matched, unmatched };
}

/** The prune of admin roles and their targets, with Okta's restorer against the simulator. */
describe('RestorePruner: admin role targets (simulator over HTTPS)', () => {
  let org: RestoreTestOrg;
  let restorer: ProviderRestorer;

  useRestoreTestOrg({ users: 20, groups: 10, apps: 2, seed: 41 }, (started) => {
    org = started;
    restorer = org.restorer();
  });

  /** A pruner over the org, with the items and per-type summaries it records. */
  const pruner = () => {
    const summaries = new Map<string, RestoreTypeSummary>();
    const summaryOf = (type: string) => {
      if (!summaries.has(type))
        summaries.set(type, { create: 0, update: 0, delete: 0, skip: 0, failed: 0, notes: [] });
      return summaries.get(type)!;
    };
    const items: RestoreItem[] = [];
    const log = new ItemLog({
      record: async (batch) => void items.push(...batch),
      progress: async () => {},
      internalError: () => {},
    });
    return { sut: new RestorePruner(org.connector, restorer, log, summaryOf), log, items, summaryOf };
  };

  it("deletes a scoped role granted since with its targets, a target added since, and never a kept role's last targets", async () => {
    const groups = (await org.records('group')).filter((g) => g.data.type === 'OKTA_GROUP');
    const admins = JSON.stringify(await org.records('admin_role_assignment'));
    const user = (await org.records('user')).find(
      (u) => u.data.status === 'ACTIVE' && !admins.includes(u.id),
    )!;
    const granted = await org.call('POST', `/api/v1/users/${user.id}/roles`, { type: 'USER_ADMIN' });
    for (const group of groups.slice(0, 2))
      await org.call(
        'PUT',
        `/api/v1/users/${user.id}/roles/${String(granted.id)}/targets/groups/${group.id}`,
      );
    const assignments = await org.records('admin_role_assignment');
    const targets = await org.records('admin_role_target');
    const grantedId = `${user.id}:${String(granted.id)}`;
    const helpDesk = assignments.find((a) => a.data.type === 'HELP_DESK_ADMIN')!;
    const groupAdmin = assignments.find((a) => a.data.type === 'USER_ADMIN' && a.id !== grantedId)!;
    const [helpDeskTarget] = targets.filter((t) => t.id.startsWith(`${helpDesk.id}:`));
    const extra = groups.find((g) => g.id !== helpDeskTarget.data.groupId)!;
    await org.call('PUT', `/api/v1/users/${helpDesk.id.replace(':', '/roles/')}/targets/groups/${extra.id}`);
    const live = (records: ResourceRecord[]) => records.map((r) => restorer.live(r));
    const under = (parent: string) => (t: ResourceRecord) => t.id.startsWith(`${parent}:`);
    const now = await org.records('admin_role_target');
    // The backup: the granted role absent, the group admin's role org-wide, the help desk's one target.
    const prunedTargets = now.filter(
      (t) => under(grantedId)(t) || under(groupAdmin.id)(t) || t.data.groupId === extra.id,
    );
    const { sut, log, items, summaryOf } = pruner();
    sut.add(
      plan(
        'admin_role_assignment',
        live(assignments.filter((a) => a.id !== grantedId)),
        live(assignments.filter((a) => a.id === grantedId)),
      ),
      [],
    );
    sut.add(
      plan('admin_role_target', live(now.filter((t) => !prunedTargets.includes(t))), live(prunedTargets)),
      [],
    );

    await sut.run();
    await log.flush();

    const after = await org.records('admin_role_target');
    expect(items.filter((item) => item.outcome !== 'ok')).toEqual([]);
    expect((await org.records('admin_role_assignment')).map((a) => a.id)).not.toContain(grantedId);
    expect(after.filter(under(grantedId))).toEqual([]);
    expect(after.filter(under(helpDesk.id)).map((t) => t.data.groupId)).toEqual([
      helpDeskTarget.data.groupId,
    ]);
    expect(after.filter(under(groupAdmin.id)).length).toBe(now.filter(under(groupAdmin.id)).length);
    expect(summaryOf('admin_role_target')).toMatchObject({
      delete: 1,
      skip: 2 + now.filter(under(groupAdmin.id)).length,
      failed: 0,
    });
    expect(summaryOf('admin_role_target').notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Left to go with/),
        expect.stringMatching(/last target/),
      ]),
    );
    expect(summaryOf('admin_role_assignment')).toMatchObject({ delete: 1, failed: 0 });
  });

  it("never deletes the connection's own API service integration, nor what hangs off it", async () => {
    const [app, other] = (await org.records('app')).filter((candidate) => candidate.data.status === 'ACTIVE');
    // As Okta lists an installed API service integration: an OAuth service app whose client_id is the connection's.
    const own: ResourceRecord = {
      ...app,
      data: { ...app.data, credentials: { oauthClient: { client_id: org.clientId } } },
    };
    const assignment: ResourceRecord = {
      type: 'app_user_assignment',
      id: `${org.clientId}:00u1`,
      name: null,
      data: {},
    };
    const { sut, log, items, summaryOf } = pruner();
    sut.add(plan('app', [], [restorer.live(own), restorer.live(other)]), []);
    sut.add(plan('app_user_assignment', [], [restorer.live(assignment)]), []);

    await sut.run();
    await log.flush();

    expect(restorer.live(own).protectedBecause).toMatch(/own API service integration/);
    expect(restorer.live(assignment).protectedBecause).toMatch(/own API service integration/);
    expect(items.map((item) => `${item.action} ${item.resourceId} ${item.outcome}`)).toEqual([
      `delete ${other.id} ok`,
    ]);
    expect(await org.find('app', (candidate) => candidate.id === app.id)).toBeDefined();
    expect(summaryOf('app')).toMatchObject({ delete: 1, skip: 1 });
    expect(summaryOf('app').notes.join(' ')).toMatch(/own API service integration/);
  });
});
