import { randomBytes } from 'node:crypto';
import { idParts, pick } from '@libs/providers/kit/type-restore-definition.js';
import { ProviderRequestError } from '@libs/providers/provider-errors.js';
import type { LiveResource } from '@libs/providers/provider-restore.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { EntraResourceType } from '@libs/providers/entra/entra-resource-catalog.js';
import { USER_SELECT } from '@libs/providers/entra/entra-resource-catalog.js';
import { entraRecord } from '@libs/providers/entra/entra-records.js';
import type { GraphObject } from '@libs/providers/entra/graph-api-client.js';
import {
  directoryObjectReference,
  type EntraRestoreDefinition,
  type EntraWriteContext,
} from '@libs/providers/entra/restore/entra-restore-definition.js';
import { graphCollection } from '@libs/providers/entra/restore/graph-collection.js';

/**
 * The user properties a restore writes: USER_SELECT less what Graph sets ("user resource type":
 * `id`, `createdDateTime`, and the `onPremises*` properties Active Directory sync owns).
 */
const USER_WRITABLE = USER_SELECT.filter(
  (name) => name !== 'id' && name !== 'createdDateTime' && !name.startsWith('onPremises'),
);

/** Group properties "Create group" and "Update group" take (the rest are Graph's or Exchange's). */
const GROUP_WRITABLE = [
  'displayName',
  'description',
  'mailNickname',
  'mailEnabled',
  'securityEnabled',
  'groupTypes',
  'visibility',
  'membershipRule',
  'membershipRuleProcessingState',
  'isAssignableToRole',
  'classification',
  'preferredDataLocation',
  'preferredLanguage',
  'theme',
];

export const SYNCED_FROM_AD =
  'Synced from on-premises Active Directory: AD is its source, so a restore does not write it (restore it in AD)';
const CREATED_DISABLED =
  'A re-created cloud user comes back disabled with a random password no one knows: reset its password, re-register its MFA methods and enable it (post-restore runbook)';
const LINK_EXISTS = /added object references already exist/i;

/** Users and groups that Active Directory syncs (`onPremisesSyncEnabled`) are AD's to write. */
function syncedBecause(data: GraphObject): string | null {
  return data.onPremisesSyncEnabled === true ? SYNCED_FROM_AD : null;
}

/**
 * A `mailNickname` for a re-created user from its sign-in name's local part: "Create user"
 * requires one, and the backup does not select it; Graph refuses `@ () \ [] " ; : <> ,` and
 * spaces in it, and more than 64 characters.
 */
function mailNicknameOf(userPrincipalName: unknown): string {
  const local = String(userPrincipalName ?? '').split('@')[0];
  return local.replace(/[^A-Za-z0-9._'-]/g, '').slice(0, 64) || `user${randomBytes(4).toString('hex')}`;
}

/**
 * A password no one learns, meeting Entra's complexity rule ("Microsoft Entra password
 * policies": 8 to 256 characters, three of lowercase, uppercase, digits and symbols): 192 random
 * bits with one of each class.
 */
function unknownPassword(): string {
  return `${randomBytes(24).toString('base64url')}aA1!`;
}

/**
 * The user with this sign-in name, if any (`$filter=userPrincipalName eq '...'`, "List users").
 * @throws as GraphApiClient.pages
 */
async function userByPrincipalName(record: ResourceRecord, context: EntraWriteContext) {
  const name = String(record.data.userPrincipalName ?? '').replace(/'/g, "''");
  for await (const page of context.graph.pages({
    template: '/v1.0/users',
    query: { $filter: `userPrincipalName eq '${name}'` },
    select: USER_SELECT,
    signal: context.signal,
  }))
    for (const user of page) return entraRecord('user', user);
  return null;
}

/**
 * A link between two directory objects written as a `$ref` ("Add member"/"Remove member" of a
 * group, "Add owner"/"Remove owner"): the record `<parentId>:<objectId>` is created by POSTing
 * the object's `@odata.id` to `<path>/$ref` and removed by DELETE `<path>/{id}/$ref`; a link
 * that exists already counts as made. Links have no content, so they are never updated.
 */
export function directoryLink(
  path: string,
  extra: Partial<EntraRestoreDefinition> = {},
): EntraRestoreDefinition {
  return {
    writable: (data) => data,
    async create(record, context) {
      const [parentId, objectId] = idParts(record.id);
      try {
        await context.graph.write({
          method: 'POST',
          template: `${path}/$ref`,
          params: { id: parentId },
          body: directoryObjectReference(context.graph.graphOrigin, objectId),
          // Either side may have been created a moment ago (Graph replicates with a delay).
          retryNotFound: true,
          signal: context.signal,
        });
      } catch (error) {
        if (!(
          error instanceof ProviderRequestError &&
          error.status === 400 &&
          LINK_EXISTS.test(error.message)
        ))
          throw error;
      }
      return { id: record.id };
    },
    async remove(live: LiveResource, context) {
      const [parentId, objectId] = idParts(live.id);
      await context.graph.write({
        method: 'DELETE',
        template: `${path}/{memberId}/$ref`,
        params: { id: parentId, memberId: objectId },
        okOn: [404],
        signal: context.signal,
      });
    },
    ...extra,
  };
}

/** The definition, its creations answering `notes` (what the runbook says of each). */
function createdWithNotes(definition: EntraRestoreDefinition, notes: string[]): EntraRestoreDefinition {
  const create = definition.create!;
  return {
    ...definition,
    create: async (record, context, together) => ({ ...(await create(record, context, together)), notes }),
  };
}

/**
 * Users, groups, and groups' members and owners ("Create user", "Update user", "Delete user",
 * "Create group", "Update group", "Add member", "Add owner" and their removals).
 */
export function directoryDefinitions(): Partial<Record<EntraResourceType, EntraRestoreDefinition>> {
  return {
    user: createdWithNotes(
      graphCollection(
        {
          path: '/v1.0/users',
          params: ['id'],
          createBody: (writable) => ({
            ...writable,
            accountEnabled: false,
            mailNickname: mailNicknameOf(writable.userPrincipalName),
            passwordProfile: { password: unknownPassword(), forceChangePasswordNextSignIn: true },
          }),
          updateBody: (writable) => writable,
        },
        {
          writable: (data) => pick(data, USER_WRITABLE),
          naturalKey: (record) =>
            typeof record.data.userPrincipalName === 'string'
              ? record.data.userPrincipalName.toLowerCase()
              : null,
          managedBecause: syncedBecause,
          protectedBecause: syncedBecause,
          find: userByPrincipalName,
          notes: [CREATED_DISABLED],
        },
      ),
      [CREATED_DISABLED],
    ),
    group: graphCollection(
      {
        path: '/v1.0/groups',
        params: ['id'],
        // "Update group": isAssignableToRole is set at creation only.
        updateBody: ({ isAssignableToRole: _once, ...rest }) => rest,
      },
      {
        writable: (data) => pick(data, GROUP_WRITABLE),
        naturalKey: (record) =>
          typeof record.data.mailNickname === 'string' ? record.data.mailNickname.toLowerCase() : null,
        managedBecause: syncedBecause,
        protectedBecause: syncedBecause,
      },
    ),
    group_membership: directoryLink('/v1.0/groups/{id}/members'),
    group_owner: directoryLink('/v1.0/groups/{id}/owners'),
  };
}
