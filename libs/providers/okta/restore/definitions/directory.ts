import type { LiveResource, RestoreWriteOptions } from '@libs/providers/provider-restore.js';
import type { OktaObject } from '@libs/providers/okta/okta-api-client.js';
import { collectionDefinition } from '@libs/providers/okta/restore/collection-definition.js';
import {
  createdId,
  idParts,
  omit,
  pick,
  type RestoreDefinition,
  SERVER_OWNED,
  type WriteContext,
} from '@libs/providers/okta/restore/restore-definition.js';

const text = (value: unknown): string | null => (typeof value === 'string' ? value.toLowerCase() : null);
const profileOf = (data: OktaObject) => (data.profile ?? {}) as OktaObject;

/** Groups Okta manages: BUILT_IN (Everyone) and APP_GROUP (imported by an app). */
export function groupManagedBecause(data: OktaObject): string | null {
  if (data.type === 'OKTA_GROUP' || data.type === undefined) return null;
  return data.type === 'BUILT_IN'
    ? 'Okta manages the Everyone group and its members itself'
    : 'Okta manages groups an app imports (APP_GROUP): they come back with the app and its import';
}

/** Groups API: profile only; names are unique in an org (case-insensitive). */
const group = collectionDefinition(
  { path: '/api/v1/groups', params: ['groupId'] },
  {
    writable: (data) => pick(data, ['profile']),
    naturalKey: (record) => text(profileOf(record.data).name),
    managedBecause: groupManagedBecause,
  },
);

/**
 * User statuses a restore treats as one: every status of a user who has activated or can sign
 * in (a re-created user has no password, so Okta leaves it PROVISIONED until the person sets
 * one). Without `activateUsers`, STAGED joins them: nobody is activated, so a staged user is as
 * far as a restore goes.
 */
function statusClass(status: unknown, options: RestoreWriteOptions): string | undefined {
  if (typeof status !== 'string') return undefined;
  if (['ACTIVE', 'PROVISIONED', 'RECOVERY', 'PASSWORD_EXPIRED', 'LOCKED_OUT'].includes(status))
    return 'ACTIVE';
  if (status === 'STAGED' && !options.activateUsers) return 'ACTIVE';
  return status;
}

/** Users API lifecycle operation on one user. */
async function lifecycle(
  userId: string,
  operation: string,
  context: WriteContext,
  query?: Record<string, string>,
) {
  await context.api.write({
    method: 'POST',
    template: `/api/v1/users/{userId}/lifecycle/${operation}`,
    params: { userId },
    query,
    signal: context.signal,
  });
}

const NO_PASSWORD =
  'Re-created without a password, recovery question or MFA enrolments (Okta never returns them)';

/**
 * Users API. Created with their profile, type, realm and group memberships in one request
 * (`groupIds`), never with credentials (no backup holds them): activated with an activation
 * e-mail only when the restore says `activateUsers`, else left STAGED. DEPROVISIONED users are
 * deactivated after creation; SUSPENDED ones can only be suspended once ACTIVE, which needs the
 * person. Profiles are replaced whole (PUT), so attributes added since the backup are cleared.
 */
function userDefinition(options: RestoreWriteOptions): RestoreDefinition {
  return {
    writable: (data) => ({
      profile: profileOf(data),
      type: pick((data.type ?? {}) as OktaObject, ['id']),
      ...pick(data, ['realmId']),
      status: statusClass(data.status, options),
    }),
    naturalKey: (record) => text(profileOf(record.data).login),
    createdWith: { type: 'group_membership', component: 1 },
    notes: [
      NO_PASSWORD,
      'Activation: with activateUsers, re-created users are sent an activation e-mail and stay PROVISIONED until they set a password; without it they stay STAGED',
      'SUSPENDED users come back PROVISIONED or STAGED: Okta suspends only ACTIVE users',
    ],
    async create(record, context, together) {
      const wanted = String(record.data.status ?? 'STAGED');
      const activate = options.activateUsers && !['STAGED', 'DEPROVISIONED'].includes(wanted);
      const answer = await context.api.write({
        method: 'POST',
        template: '/api/v1/users',
        query: { activate: String(activate) },
        body: {
          profile: profileOf(record.data),
          ...(record.data.type ? { type: pick(record.data.type as OktaObject, ['id']) } : {}),
          ...pick(record.data, ['realmId']),
          groupIds: together.map((membershipId) => idParts(membershipId)[0]),
        },
        signal: context.signal,
      });
      const id = createdId(answer, 'a user');
      const notes = [NO_PASSWORD];
      if (wanted === 'DEPROVISIONED') await lifecycle(id, 'deactivate', context, { sendEmail: 'false' });
      else if (wanted !== 'STAGED' && !activate)
        notes.push(`Left STAGED (was ${wanted}): restore with activateUsers to send an activation e-mail`);
      else if (wanted === 'SUSPENDED')
        notes.push('Not suspended (was SUSPENDED): Okta suspends only ACTIVE users');
      return { id, notes };
    },
    // Okta's getUser takes "an ID, login, or login shortname (as long as it is unambiguous)".
    async find(record, context) {
      const login = text(profileOf(record.data).login);
      if (login === null) return null;
      const live = await context.api.object({
        template: '/api/v1/users/{userId}',
        params: { userId: login },
        emptyOn: [404],
        signal: context.signal,
      });
      return live && { type: record.type, id: String(live.id), name: login, data: live };
    },
    async update(record, live, context) {
      await context.api.write({
        method: 'PUT',
        template: '/api/v1/users/{userId}',
        params: { userId: live.id },
        // A full replacement is the only way to put a user back in its type (UpdateUserRequest.type).
        body: {
          profile: profileOf(record.data),
          ...(record.data.type ? { type: pick(record.data.type as OktaObject, ['id']) } : {}),
          ...pick(record.data, ['realmId']),
        },
        signal: context.signal,
      });
      return changeStatus(live, String(record.data.status ?? live.status), context);
    },
    async remove(live, context) {
      // deleteUser: a first DELETE deactivates, a second deletes.
      const times = live.status === 'DEPROVISIONED' ? 1 : 2;
      for (let i = 0; i < times; i++)
        await context.api.write({
          method: 'DELETE',
          template: '/api/v1/users/{userId}',
          params: { userId: live.id },
          query: { sendEmail: 'false' },
          okOn: [404],
          signal: context.signal,
        });
    },
  };

  /** The lifecycle operations from the live status to the backed-up one; notes where Okta has none. */
  async function changeStatus(live: LiveResource, wanted: string, context: WriteContext): Promise<string[]> {
    const from = live.status ?? wanted;
    if (statusClass(from, options) === statusClass(wanted, options)) return [];
    if (wanted === 'DEPROVISIONED') {
      await lifecycle(live.id, 'deactivate', context, { sendEmail: 'false' });
      return [];
    }
    if (from === 'SUSPENDED' && statusClass(wanted, options) === 'ACTIVE') {
      await lifecycle(live.id, 'unsuspend', context);
      return [];
    }
    if (wanted === 'SUSPENDED') {
      if (from === 'ACTIVE') {
        await lifecycle(live.id, 'suspend', context);
        return [];
      }
      return [`Not suspended: Okta suspends only ACTIVE users (the user is ${from})`];
    }
    if (from === 'STAGED' || from === 'DEPROVISIONED') {
      await lifecycle(live.id, 'activate', context, { sendEmail: String(options.activateUsers) });
      return [];
    }
    return [`Status ${from} kept: Okta has no operation back to ${wanted}`];
  }
}

/**
 * Group memberships (`PUT`/`DELETE /api/v1/groups/{groupId}/users/{userId}`): a link, nothing
 * to update. Memberships of groups Okta manages are left to Okta (OktaRestorer).
 */
const groupMembership: RestoreDefinition = {
  writable: () => ({}),
  async create(record, context) {
    const [groupId, userId] = idParts(record.id);
    await context.api.write({
      method: 'PUT',
      template: '/api/v1/groups/{groupId}/users/{userId}',
      params: { groupId, userId },
      signal: context.signal,
    });
    return { id: record.id };
  },
  async remove(live, context) {
    const [groupId, userId] = idParts(live.id);
    await context.api.write({
      method: 'DELETE',
      template: '/api/v1/groups/{groupId}/users/{userId}',
      params: { groupId, userId },
      okOn: [404],
      signal: context.signal,
    });
  },
};

/** Group owners (assignGroupOwner takes `{ id, type }`; no update). */
const groupOwner = collectionDefinition(
  {
    path: '/api/v1/groups/{groupId}/owners',
    params: ['groupId', 'ownerId'],
    updateMethod: null,
    body: (writable) => writable,
  },
  {
    writable: (data) => ({ id: data.id, type: data.type }),
    async find(record, context) {
      const [groupId, ownerId] = idParts(record.id);
      for await (const page of context.api.pages({
        template: '/api/v1/groups/{groupId}/owners',
        params: { groupId },
        signal: context.signal,
      }))
        for (const owner of page)
          if (owner.id === ownerId)
            return { type: record.type, id: record.id, name: record.name, data: owner };
      return null;
    },
  },
);

/**
 * Group rules: created INACTIVE, changed and deleted only when INACTIVE (Okta: "Only INACTIVE
 * rules can be updated"), so an ACTIVE rule is deactivated, replaced and activated again.
 */
const groupRule = collectionDefinition(
  {
    path: '/api/v1/groups/rules',
    params: ['groupRuleId'],
    lifecycle: true,
    deactivateToUpdate: true,
    deactivateToDelete: true,
  },
  {
    writable: (data) => omit(data, [...SERVER_OWNED, 'allGroupsValid']),
    naturalKey: (record) => text(record.data.name),
  },
);

/** How a restore writes the directory's types (Groups and Users APIs). */
export function directoryDefinitions(options: RestoreWriteOptions) {
  return {
    group,
    user: userDefinition(options),
    group_membership: groupMembership,
    group_owner: groupOwner,
    group_rule: groupRule,
  } satisfies Record<string, RestoreDefinition>;
}
