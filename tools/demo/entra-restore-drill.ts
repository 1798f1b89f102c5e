import { isDeepStrictEqual } from 'node:util';
import type { EntraSnapshot, RunningEntraSimulator } from '@libs/simulators/entra/index.js';
import { graphClient } from '@libs/simulators/entra/testing/graph-client.js';
import { requireProvider } from '@libs/providers/registry.js';
import { skippedDrill } from './demo-tenant.js';
import { differences, failedWrites, recreatedId, runDrillRestore } from './restore-drill.js';
import type { DrillResult } from './drill-result.js';
import type { ServiceClient } from './service-client.js';

/** What an admin's tool needs to make the drill's damage: delete a group, change a user. */
const ADMIN_ROLES = ['Group.ReadWrite.All', 'User.ReadWrite.All'];

/** Fields Graph assigns to a (re-)created group: not compared. */
const SERVER_ASSIGNED = new Set([
  ...requireProvider('entra_id').volatileFields,
  'id',
  'createdDateTime',
  'renewedDateTime',
  'expirationDateTime',
  'securityIdentifier',
  'mail',
  'proxyAddresses',
]);

const MISTAKE = 'Changed by mistake';

/**
 * The demo's restore drill on Entra ID: an admin deletes the security group with the most members
 * (a cloud security group waits 30 days in the deleted items since 2026, so the restore brings it
 * back from there with its id; purged, it would be created anew with a new id) and changes a
 * user's job title; a selective restore of those two through the public API puts them back, and
 * the tenant is checked: the restored group, found through the restore's id map (its item's
 * `newId`, else its own id), equals its backed-up record apart from what Graph assigns and has every member
 * again; the user's title is back.
 * @returns `skipped` without a restore when the tenant has no security group with members
 */
export async function entraRestoreDrill(
  tenant: RunningEntraSimulator,
  api: ServiceClient,
  backupId: string,
  say: (line: string) => void,
): Promise<DrillResult> {
  const before = tenant.snapshot();
  const group = before.group
    .filter((candidate) => candidate.data.securityEnabled === true && candidate.data.mailEnabled === false)
    .filter((candidate) => candidate.data.onPremisesSyncEnabled !== true)
    .sort((a, b) => members(before, b.id).length - members(before, a.id).length)[0];
  const user = before.user.find(
    (candidate) => candidate.data.accountEnabled === true && candidate.data.onPremisesSyncEnabled !== true,
  );
  if (!group || members(before, group.id).length === 0 || !user)
    return skippedDrill('the tenant holds no security group with members, or no enabled cloud user');
  const admin = await graphClient(tenant, ADMIN_ROLES);
  try {
    await admin.call('DELETE', `/v1.0/groups/${group.id}`);
    const title = user.data.jobTitle === MISTAKE ? `${MISTAKE} again` : MISTAKE;
    await admin.call('PATCH', `/v1.0/users/${user.id}`, { jobTitle: title });
  } finally {
    await admin.close();
  }
  say(
    `Drill: deleted group "${group.name}" (${members(before, group.id).length} members) and changed user ${user.name}; restoring...`,
  );

  const restore = await runDrillRestore(
    api,
    backupId,
    { types: ['group', 'user'], ids: [group.id, user.id] },
    say,
  );
  const after = tenant.snapshot();
  const problems: string[] = [];
  const newId = await recreatedId(api, restore.restoreId, { type: 'group', id: group.id });
  const back = newId === null ? undefined : after.group.find((record) => record.id === newId);
  const changed = back ? differences(group.data, back.data, SERVER_ASSIGNED) : [];
  if (!back) problems.push(`the restore did not re-create group ${group.id}`);
  else if (changed.length > 0)
    problems.push(`re-created group ${back.id} differs from the backup at ${changed.join(', ')}`);
  else if (!isDeepStrictEqual(members(after, back.id), members(before, group.id)))
    problems.push(`re-created group ${back.id} lacks members it had`);
  if (restore.totals.failed > 0) problems.push(...(await failedWrites(api, restore.restoreId)));
  const title = after.user.find((candidate) => candidate.id === user.id)?.data.jobTitle;
  if (title !== user.data.jobTitle) problems.push(`user ${user.id}'s job title is not as backed up`);
  return {
    status: restore.status,
    seconds: restore.seconds,
    writes: restore.totals,
    deleted: { type: 'group', id: group.id, name: group.name },
    changed_user: { id: user.id, login: user.name },
    restored: problems.every((problem) => problem.startsWith('failed ')),
    ...(problems.length ? { reason: problems.join('; ') } : {}),
  };
}

/** The member ids of a group (membership record ids `<groupId>:<memberId>`), sorted. */
function members(state: EntraSnapshot, groupId: string): string[] {
  return state.group_membership
    .filter((membership) => membership.id.startsWith(`${groupId}:`))
    .map((membership) => membership.id.split(':')[1])
    .sort();
}
