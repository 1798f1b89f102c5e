import type { RunningSimulator } from '@libs/simulators/okta/simulator-options.js';
import type { SimulatorClient } from './simulator-client.js';

/** What `changeOrgAsAdmins` did, by id, for specs to check a backup against. */
export interface OrgChanges {
  /** An ACTIVE user whose profile was edited. */
  edited: string;
  /** An ACTIVE user deactivated by a first DELETE (now DEPROVISIONED). */
  deprovisioned: string;
  /** A DEPROVISIONED user deleted for good. */
  purged: string;
  /** An ACTIVE user deactivated, then deleted. */
  removed: string;
  /** The user created (STAGED). */
  created: string;
  /** The group renamed, and the user added to it. */
  joined: { groupId: string; userId: string };
  /** The group a member was removed from, and that member. */
  left: { groupId: string; userId: string };
  /** The group deleted. */
  deletedGroup: string;
  /** The password policy whose description was edited. */
  policy: string;
}

/**
 * Changes an org as its admins would, through Okta's Users, Groups and Policies APIs: users edited,
 * deactivated, deleted and created; a group renamed, one deleted, one created; a member added and
 * one removed; a policy edited. Users, groups and memberships are Okta's incremental types; the
 * policy is listed in full. The org needs three OKTA_GROUPs, three ACTIVE users and a
 * DEPROVISIONED one, and a PASSWORD policy (every generated org has them).
 *
 * @throws Error naming the call when the org refuses one.
 */
export async function changeOrgAsAdmins(sim: RunningSimulator, okta: SimulatorClient): Promise<OrgChanges> {
  const call = async (method: string, path: string, json?: unknown) => {
    const response = await okta.call(method, path, json === undefined ? {} : { json });
    if (response.status >= 300)
      throw new Error(`${method} ${path} answered ${response.status}: ${response.text}`);
    return response.body as Record<string, unknown>;
  };
  const held = sim.snapshot();
  const active = held.user.filter((user) => user.data.status === 'ACTIVE').map((user) => user.id);
  const purged = held.user.find((user) => user.data.status === 'DEPROVISIONED')!.id;
  const [joined, left, deletedGroup] = held.group
    .filter((group) => group.data.type === 'OKTA_GROUP')
    .map((group) => group.id);
  const members = new Set(held.group_membership.map((membership) => membership.id));
  const newcomer = active.find((userId) => !members.has(`${joined}:${userId}`))!;
  const leaver = held.group_membership.find((membership) => membership.id.startsWith(`${left}:`))!;
  const [edited, deprovisioned, removed] = active;
  const policy = held.policy.find((candidate) => candidate.data.type === 'PASSWORD')!;

  await call('POST', `/api/v1/users/${edited}`, { profile: { title: 'Changed' } });
  await call('DELETE', `/api/v1/users/${deprovisioned}`);
  await call('DELETE', `/api/v1/users/${purged}`);
  await call('POST', `/api/v1/users/${removed}/lifecycle/deactivate`);
  await call('DELETE', `/api/v1/users/${removed}`);
  const created = await call('POST', '/api/v1/users?activate=false', {
    profile: {
      firstName: 'New',
      lastName: 'Hire',
      email: 'new.hire@example.com',
      login: 'new.hire@example.com',
    },
  });
  await call('PUT', `/api/v1/groups/${joined}`, { profile: { name: 'Renamed' } });
  await call('PUT', `/api/v1/groups/${joined}/users/${newcomer}`);
  await call('DELETE', `/api/v1/groups/${left}/users/${leaver.id.split(':')[1]}`);
  await call('DELETE', `/api/v1/groups/${deletedGroup}`);
  await call('POST', '/api/v1/groups', { profile: { name: 'Created after the base' } });
  const { _links: _ignored, ...policyBody } = policy.data;
  await call('PUT', `/api/v1/policies/${policy.id}`, { ...policyBody, description: 'Edited after the base' });
  return {
    edited,
    deprovisioned,
    purged,
    removed,
    created: String(created.id),
    joined: { groupId: joined, userId: newcomer },
    left: { groupId: left, userId: leaver.id.split(':')[1] },
    deletedGroup,
    policy: policy.id,
  };
}
