import { isDeepStrictEqual } from 'node:util';
import type { OktaResourceType, RunningSimulator, SnapshotRecord } from '@libs/simulators/okta/index.js';
import { deleteOne } from '@libs/simulators/okta/testing/okta-damage.js';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import { requireProvider } from '@libs/providers/registry.js';
import { differences, failedWrites, recreatedId, runDrillRestore } from './restore-drill.js';
import type { DrillResult } from './drill-result.js';
import type { ServiceClient } from './service-client.js';

type Json = Record<string, unknown>;
type OrgState = Record<string, SnapshotRecord[]>;
/** What the Okta drill deleted. */
type OktaDeletion = { type: OktaResourceType; id: string; name: string | null };

/**
 * What the drill deletes when the org has no Okta group, in order: types an admin deletes by
 * mistake whose re-creation keeps every field the org showed (docs/restore-fidelity.md rows with
 * no difference). Users are left out: a re-created user has no password.
 */
const FALLBACK_TYPES: readonly OktaResourceType[] = [
  'group_rule',
  'network_zone',
  'trusted_origin',
  'inline_hook',
  'behavior',
  'policy',
  'custom_admin_role',
  'identity_provider',
  'linked_object',
];

/** Fields the org assigns to a (re-)created object: not compared. */
const SERVER_ASSIGNED = new Set([...requireProvider('okta').volatileFields, 'id', 'created']);

const MISTAKE = 'Changed by mistake';

/**
 * The demo's restore drill (DESIGN section 6): an admin deletes an object (the Okta group with the
 * most members, whose memberships and app assignments go with it; or, in an org without one, an
 * object of another type Okta lets an admin delete and re-create) and changes a user's profile;
 * a selective restore of those objects through the public API puts them back, and the org is
 * checked: the re-created object is found through the restore's id map (its items' `newId`),
 * never by name, and must equal the backed-up record apart from the fields Okta assigns.
 * @returns `skipped` without a restore when Okta lets the drill neither delete nor change anything
 */
export async function restoreDrill(
  org: RunningSimulator,
  api: ServiceClient,
  backupId: string,
  say: (line: string) => void,
): Promise<DrillResult> {
  const before = org.snapshot();
  const admin = new SimulatorClient(org);
  let deleted: OktaDeletion | null;
  let user: SnapshotRecord | null;
  try {
    deleted = await deleteSomething(admin, before);
    user = await changeAUser(admin, before.user);
  } finally {
    await admin.close();
  }
  const none = {
    seconds: 0,
    writes: { create: 0, update: 0, delete: 0, failed: 0 },
    deleted,
    changed_user: null,
  };
  if (!deleted && !user)
    return {
      ...none,
      status: 'skipped',
      restored: false,
      reason:
        'the org holds no object Okta lets an admin delete and re-create, and no user it lets an admin change',
    };
  say(
    `Drill: ${[
      deleted &&
        `deleted ${deleted.type} "${deleted.name}"${deleted.type === 'group' ? ` (${members(before, deleted.id).length} members)` : ''}`,
      user && `changed user ${user.name}`,
    ]
      .filter(Boolean)
      .join(' and ')}; restoring...`,
  );

  const restore = await runDrillRestore(
    api,
    backupId,
    {
      types: [...(deleted ? [deleted.type] : []), ...(user ? ['user'] : [])],
      ids: [...(deleted ? [deleted.id] : []), ...(user ? [user.id] : [])],
    },
    say,
  );

  const after = org.snapshot();
  const problems: string[] = [];
  if (deleted) {
    const newId = await recreatedId(api, restore.restoreId, deleted);
    const original = before[deleted.type].find((record) => record.id === deleted.id)!;
    const back = newId === null ? undefined : after[deleted.type].find((record) => record.id === newId);
    const changed = back ? differences(original.data, back.data, SERVER_ASSIGNED) : [];
    if (!back) problems.push(`the restore did not re-create ${deleted.type} ${deleted.id}`);
    else if (changed.length > 0)
      problems.push(`re-created ${deleted.type} ${back.id} differs from the backup at ${changed.join(', ')}`);
    else if (
      deleted.type === 'group' &&
      !isDeepStrictEqual(members(after, back.id), members(before, deleted.id))
    )
      problems.push(`re-created group ${back.id} lacks members it had`);
  }
  if (restore.totals.failed > 0) problems.push(...(await failedWrites(api, restore.restoreId)));
  if (user) {
    const profile = after.user.find((candidate) => candidate.id === user.id)?.data.profile;
    if (!isDeepStrictEqual(profile, user.data.profile))
      problems.push(`user ${user.id}'s profile is not as backed up`);
  }
  return {
    ...none,
    status: restore.status,
    seconds: restore.seconds,
    writes: restore.totals,
    changed_user: user ? { id: user.id, login: user.name } : null,
    restored: problems.every((problem) => problem.startsWith('failed ')),
    ...(problems.length ? { reason: problems.join('; ') } : {}),
  };
}

/** The user ids of a group's memberships (record id `<groupId>:<userId>`), sorted. */
function members(state: OrgState, groupId: string): string[] {
  return state.group_membership
    .filter((membership) => membership.id.startsWith(`${groupId}:`))
    .map((membership) => membership.id.split(':')[1])
    .sort();
}

/**
 * Deletes the Okta group with the most members, or else one object of the first fallback type
 * Okta lets an admin delete (deleteOne tries candidates: Okta refuses default and system ones).
 */
async function deleteSomething(admin: SimulatorClient, state: OrgState): Promise<OktaDeletion | null> {
  const groups = state.group
    .filter((group) => group.data.type === 'OKTA_GROUP')
    .sort((a, b) => members(state, b.id).length - members(state, a.id).length);
  const attempts: Array<[OktaResourceType, SnapshotRecord[]]> = [
    ['group', groups],
    ...FALLBACK_TYPES.map((type): [OktaResourceType, SnapshotRecord[]] => [type, state[type] ?? []]),
  ];
  for (const [type, candidates] of attempts) {
    if (candidates.length === 0) continue;
    const id = await deleteOne(admin, type, candidates, state);
    if (id) return { type, id, name: candidates.find((record) => record.id === id)!.name };
  }
  return null;
}

/**
 * Changes one user's `profile.title` with a partial update (POST /api/v1/users/{id}), trying
 * active users mastered by Okta first: Okta refuses profile changes to users mastered elsewhere
 * (AD, LDAP, an app) and to deprovisioned ones, and validates the whole profile on update.
 * @returns the user as it was, or null when Okta accepted no change
 */
async function changeAUser(admin: SimulatorClient, users: SnapshotRecord[]): Promise<SnapshotRecord | null> {
  const rank = (user: SnapshotRecord) =>
    (user.data.status === 'ACTIVE' ? 0 : 2) +
    ((user.data.credentials as { provider?: { type?: string } } | undefined)?.provider?.type === 'OKTA'
      ? 0
      : 1);
  const candidates = users
    .filter((user) => user.data.status !== 'DEPROVISIONED')
    .sort((a, b) => rank(a) - rank(b));
  for (const user of candidates.slice(0, 20)) {
    const title = (user.data.profile as Json).title === MISTAKE ? `${MISTAKE} again` : MISTAKE;
    const answer = await admin.call('POST', `/api/v1/users/${user.id}`, { json: { profile: { title } } });
    if (answer.status < 300) return user;
  }
  return null;
}
