import { type EncodedRecords, keepRecords } from '@libs/snapshot/encoded-records.js';

import { encodedPages } from '@libs/providers/kit/catalog-collector.js';
import { inOrderConcurrent } from '@libs/providers/kit/in-order-concurrent.js';
import type { ListRequest, OktaApiClient } from './okta-api-client.js';
import {
  DEPROVISIONED_USERS_SEARCH,
  GROUP_ROLES_TEMPLATE,
  GROUPS_TEMPLATE,
  PAGE_LIMITS,
  POLICIES_TEMPLATE,
  POLICY_TYPES,
  ROLE_ASSIGNEES_TEMPLATE,
  USER_ROLES_TEMPLATE,
  USERS_TEMPLATE,
} from './okta-endpoints.js';
import type { ListPageTask } from './okta-list-page.js';
import { item, keyOf, record, type Item } from './okta-records.js';
import { RESOURCE_DEFINITIONS } from './okta-resource-catalog.js';

/**
 * Okta's hooks of the catalogue walk (the catalogue's `users`, `policies` and `admin_roles`
 * kinds, okta-catalog-types.ts): the collection rules no entry kind of the kit says.
 */

type Pages = AsyncGenerator<Item[]>;

/** What a hook reads with: the org's API, and how many lists it may read at once (>= 1). */
export interface OktaHookContext {
  api: OktaApiClient;
  width: number;
}

/** Encoding of records for a snapshot (EncodedCollectOptions). */
export interface CollectorEncoding {
  /** Encodes one page (on a worker thread: okta-page-worker.ts). */
  encode: (task: ListPageTask) => Promise<EncodedRecords>;
  volatileFields: readonly string[];
}

/**
 * Okta's list users omits DEPROVISIONED users (OpenAPI listUsers: "To return all users, use a
 * filter or search query instead"), so a second query fetches them:
 * `search=status eq "DEPROVISIONED"`. Ids of the first pass are kept so a user who appears
 * in both (deprovisioned between the queries, or an org that already lists them) is yielded
 * once; ids only, about 70 bytes a user. With `filter` (which returns every status), one
 * query.
 */
export async function* users({ api }: OktaHookContext, signal?: AbortSignal, filter?: string): Pages {
  const name = RESOURCE_DEFINITIONS.user.name;
  const { queries, isNew } = usersQueries(signal, filter);
  for (const list of queries) {
    for await (const page of api.pages(list)) {
      const fresh: Item[] = [];
      for (const object of page) {
        const id = keyOf(object, list);
        if (isNew(id)) fresh.push({ record: record('user', id, name(object), object) });
      }
      yield fresh;
    }
  }
}

/**
 * Users as `users` lists them, each page encoded while the next one is fetched; duplicates are
 * dropped by the ids the encodings hand back.
 */
export async function* encodedUsers(
  { api }: OktaHookContext,
  { encode, volatileFields }: CollectorEncoding,
  signal?: AbortSignal,
  filter?: string,
): AsyncGenerator<EncodedRecords> {
  const { queries, isNew } = usersQueries(signal, filter);
  for (const list of queries) {
    const pages = encodedPages(api.pageBodies(list), (body) =>
      encode({ type: 'user', template: list.template, body, volatileFields }),
    );
    for await (const encoded of pages) yield keepRecords(encoded, isNew);
  }
}

/** One list per policy type; a type the org rejects with 400 (not enabled there) is skipped. */
export async function* policies({ api }: OktaHookContext, signal?: AbortSignal): Pages {
  const definition = RESOURCE_DEFINITIONS.policy;
  for (const type of POLICY_TYPES) {
    const list: ListRequest = { template: POLICIES_TEMPLATE, query: { type }, emptyOn: [400], signal };
    for await (const page of api.pages(list)) {
      yield page.map((object) => item('policy', keyOf(object, list), definition, object));
    }
  }
}

/**
 * Role assignments of users and groups. Users: `/api/v1/iam/assignees/users` names the users
 * that hold roles, whose `/api/v1/users/{userId}/roles` are then read (admins only, never
 * every user); a user's list also shows roles held through a group (`assignmentType: GROUP`),
 * which are backed up once, as the group's. Groups: `/api/v1/groups/{groupId}/roles` for the
 * groups whose stats say they hold a role (adminGroupIds).
 */
export async function* adminRoles(context: OktaHookContext, signal?: AbortSignal): Pages {
  const { api, width } = context;
  const assignees: ListRequest = {
    template: ROLE_ASSIGNEES_TEMPLATE,
    query: { limit: PAGE_LIMITS.iamResources },
    itemsKey: 'value',
    signal,
  };
  for await (const page of api.pages(assignees)) {
    const userIds = page.map((user) => keyOf(user, assignees));
    const open = (userId: string) => rolesOf(api, USER_ROLES_TEMPLATE, { userId }, userId, 'USER', signal);
    yield* inOrderConcurrent(userIds, open, width);
  }
  const open = (groupId: string) => rolesOf(api, GROUP_ROLES_TEMPLATE, { groupId }, groupId, 'GROUP', signal);
  yield* inOrderConcurrent(await adminGroupIds(api, signal), open, width);
}

/**
 * The groups that may hold roles: `expand=stats` lists each group with
 * `_embedded.stats.hasAdminPrivilege` ("has admin privileges via a group-level role
 * assignment", listGroups; `hasAdminPrivlege` in the OpenAPI), one request per 10,000 groups
 * instead of one per group. A group whose stats do not say false is asked.
 */
async function adminGroupIds(api: OktaApiClient, signal?: AbortSignal): Promise<string[]> {
  const list: ListRequest = {
    template: GROUPS_TEMPLATE,
    query: { limit: PAGE_LIMITS.groups, expand: 'stats' },
    signal,
  };
  const ids: string[] = [];
  for await (const page of api.pages(list))
    for (const group of page) {
      const stats = (group._embedded as { stats?: Record<string, unknown> } | undefined)?.stats;
      if ((stats?.hasAdminPrivilege ?? stats?.hasAdminPrivlege) !== false) ids.push(keyOf(group, list));
    }
  return ids;
}

/** The roles `owner` holds as `assignmentType` (USER or GROUP); a deleted owner has none. */
async function* rolesOf(
  api: OktaApiClient,
  template: string,
  params: Record<string, string>,
  owner: string,
  assignmentType: string,
  signal?: AbortSignal,
): Pages {
  const definition = RESOURCE_DEFINITIONS.admin_role_assignment;
  const list: ListRequest = { template, params, emptyOn: [404], signal };
  for await (const page of api.pages(list))
    yield page
      .filter((role) => role.assignmentType === undefined || role.assignmentType === assignmentType)
      .map((role) => item('admin_role_assignment', `${owner}:${keyOf(role, list)}`, definition, role));
}

/**
 * The queries that list every user (`users`), and whether an id is listed for the
 * first time (asked once per listed user, in order).
 */
function usersQueries(
  signal?: AbortSignal,
  filter?: string,
): { queries: ListRequest[]; isNew: (id: string) => boolean } {
  if (filter !== undefined) {
    return {
      queries: [{ template: USERS_TEMPLATE, query: { filter, limit: PAGE_LIMITS.users }, signal }],
      isNew: () => true,
    };
  }
  const seen = new Set<string>();
  return {
    queries: [
      { template: USERS_TEMPLATE, query: { limit: PAGE_LIMITS.users }, signal },
      {
        template: USERS_TEMPLATE,
        query: { search: DEPROVISIONED_USERS_SEARCH, limit: PAGE_LIMITS.users },
        signal,
      },
    ],
    isNew: (id) => {
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    },
  };
}
