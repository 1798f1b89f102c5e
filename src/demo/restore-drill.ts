import { isDeepStrictEqual } from 'node:util';
import type { RunningSimulator } from '@libs/okta-simulator/index.js';
import { SimulatorClient } from '@libs/okta-simulator/testing/simulator-client.js';
import type { ServiceClient } from './service-client.js';

/** What the drill did and found. */
export interface DrillResult {
  status: string;
  seconds: number;
  /** writes by action, over every type */
  writes: { create: number; update: number; delete: number; failed: number };
  /** the group is back under its name with every member, the user's profile as backed up */
  restored: boolean;
}

interface RestoreView {
  restore: {
    status: string;
    progress_pct: number;
    progress_message: string;
    totals: DrillResult['writes'];
  };
}

type Json = Record<string, unknown>;

/**
 * The demo's restore drill (DESIGN section 6): an admin deletes the Okta group with the most
 * members (its memberships and app assignments go with it) and changes a user's profile; a
 * selective restore of those two through the public API puts both back, and the org is checked.
 * @throws Error when the org refuses the damage (the drill needs a group Okta lets an admin delete)
 */
export async function restoreDrill(
  org: RunningSimulator,
  api: ServiceClient,
  backupId: string,
  say: (line: string) => void,
): Promise<DrillResult> {
  const before = org.snapshot();
  const members = (groupId: string, state = before) =>
    state.group_membership
      .filter((membership) => membership.id.startsWith(`${groupId}:`))
      .map((membership) => membership.id.split(':')[1])
      .sort();
  const group = before.group
    .filter((candidate) => candidate.data.type === 'OKTA_GROUP')
    .sort((a, b) => members(b.id).length - members(a.id).length)[0];
  const user = before.user.find((candidate) => candidate.data.status === 'ACTIVE');
  if (!group || !user) throw new Error('The org has no Okta group or active user to drill with');

  const admin = new SimulatorClient(org);
  try {
    const damage = [
      await admin.call('DELETE', `/api/v1/groups/${group.id}`),
      await admin.call('POST', `/api/v1/users/${user.id}`, {
        json: { profile: { title: 'Changed by mistake' } },
      }),
    ];
    if (damage.some((answer) => answer.status >= 300))
      throw new Error(
        `The org refused the drill's damage: ${damage.map((answer) => answer.status).join(', ')}`,
      );
  } finally {
    await admin.close();
  }
  say(
    `Drill: deleted group "${group.name}" (${members(group.id).length} members) and changed user ${user.name}; restoring...`,
  );

  const started = Date.now();
  const { restoreId } = await api.post<{ restoreId: string }>('/api/restore', {
    backupId,
    mode: 'selective',
    resourceTypes: ['group', 'user'],
    resourceIds: [group.id, user.id],
  });
  const view = await api.poll<RestoreView>(
    `/api/restore/${restoreId}?limit=1`,
    (current) => !['pending', 'running'].includes(current.restore.status),
    (current) => [current.restore.progress_pct, current.restore.progress_message],
    (pct, message) => say(`  ${pct.toFixed(0).padStart(3)} % ${message}`),
    600_000,
  );
  const seconds = (Date.now() - started) / 1000;

  const after = org.snapshot();
  const back = after.group.find(
    (candidate) => (candidate.data.profile as Json).name === (group.data.profile as Json).name,
  );
  const profile = after.user.find((candidate) => candidate.id === user.id)?.data.profile;
  const restored =
    back !== undefined &&
    isDeepStrictEqual(members(back.id, after), members(group.id)) &&
    isDeepStrictEqual(profile, user.data.profile);
  return {
    status: view.restore.status,
    seconds: Number(seconds.toFixed(2)),
    writes: view.restore.totals,
    restored,
  };
}
