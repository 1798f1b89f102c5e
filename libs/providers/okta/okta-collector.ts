import { type EncodedRecords, keepRecords } from '@libs/snapshot/encoded-records.js';

import type { EncodedResourcePart, PartDelta } from '@libs/providers/provider-connector.js';
import { ProviderError } from '@libs/providers/provider-errors.js';
import type { OktaResourceType, ResourceRecord } from '@libs/providers/resource-types.js';
import { inOrderConcurrent } from '@libs/providers/kit/in-order-concurrent.js';
import { type ParentPass, ParentPasses } from '@libs/providers/kit/parent-passes.js';
import { type ListPageTask, ENCODABLE_TYPES } from './okta-list-page.js';
import type { ListRequest, OktaApiClient } from './okta-api-client.js';
import { childItems, item, keyOf, record, type Item } from './okta-records.js';
import {
  DEPROVISIONED_USERS_SEARCH,
  GROUP_ROLES_TEMPLATE,
  GROUPS_TEMPLATE,
  PAGE_LIMITS,
  POLICIES_TEMPLATE,
  POLICY_TYPES,
  RESOURCE_DEFINITIONS,
  ROLE_ASSIGNEES_TEMPLATE,
  USER_ROLES_TEMPLATE,
  USERS_TEMPLATE,
  type ChildDefinition,
  type ChildObjectsDefinition,
  type DerivedDefinition,
  type ParentRef,
  type ResourceDefinition,
  type SingleDefinition,
  type TopLevelDefinition,
} from './okta-resource-catalog.js';

type Pages = AsyncGenerator<Item[]>;

/** Encoding of records for a snapshot (EncodedCollectOptions). */
export interface CollectorEncoding {
  /** Encodes one page (on a worker thread: okta-page-worker.ts). */
  encode: (task: ListPageTask) => Promise<EncodedRecords>;
  volatileFields: readonly string[];
}

/**
 * Streams the records of each Okta type page by page, redacting secrets (okta-not-captured.ts).
 * Only parent references are kept (group ids to list memberships, an app's sign-on mode...):
 * remembered while the parent type streams in full, or listed on demand when it was not.
 *
 * Parts may be consumed at the same time (types of different rate-limit buckets then share the
 * wall time): a child part whose parent part is still streaming waits for the parent's complete
 * pass instead of listing the parent a second time (ParentPasses).
 */
export class OktaCollector {
  private readonly passes: ParentPasses<OktaResourceType, ParentRef>;

  /**
   * @param width child lists fetched at once (members of several groups), >= 1.
   * @param parents types whose references children will need, remembered as they stream.
   * @param encoding when set, the ENCODABLE_TYPES come encoded (EncodedRecords)
   */
  constructor(
    private readonly api: OktaApiClient,
    private readonly width: number,
    parents: ReadonlySet<OktaResourceType>,
    private readonly encoding?: CollectorEncoding,
  ) {
    this.passes = new ParentPasses(parents, (type, signal) => this.listRefs(type, signal));
  }

  /**
   * The part of `type`: complete, or with `since` (an Okta timestamp, already widened by the
   * caller) the changes of an incremental type (RESOURCE_DEFINITIONS `incremental`). A
   * `children_of` part lists its parents before it is returned.
   */
  async part(
    type: OktaResourceType,
    since: string | undefined,
    signal?: AbortSignal,
  ): Promise<EncodedResourcePart> {
    const definition = RESOURCE_DEFINITIONS[type] as ResourceDefinition;
    const incremental = since === undefined ? undefined : incrementalOf(definition);
    const encoded = this.encoding !== undefined && ENCODABLE_TYPES.has(type);
    if (since !== undefined && incremental?.fields) {
      const filter = incremental.fields.map((field) => `${field} gt "${since}"`).join(' or ');
      const delta: PartDelta = { kind: 'changed' };
      const records =
        encoded && definition.kind === 'users'
          ? this.encodedUsers(signal, filter)
          : unwrap(this.pages(type, signal, filter));
      return { type, records, delta };
    }
    if (since !== undefined && incremental?.parentField && definition.kind === 'child') {
      const filter = `${incremental.parentField} gt "${since}"`;
      const parents = await this.listRefs(definition.parent, signal, filter);
      const records = encoded
        ? this.encodedChildren(type, definition, parents, signal)
        : unwrap(this.children(type, definition, parents, signal));
      return { type, records, delta: { kind: 'children_of', parentIds: parents.map((parent) => parent.id) } };
    }
    if (encoded && definition.kind === 'child')
      return { type, records: this.encodedChildren(type, definition, undefined, signal) };
    if (encoded && definition.kind === 'users') return { type, records: this.encodedUsers(signal) };
    return { type, records: this.records(type, signal, this.passes.begin(type)) };
  }

  /**
   * Every record of `type`, yielded as pages arrive. With `pass`, the references are kept and
   * handed over at the end; a pass that stops early (an error, a consumer that gave up) fails.
   */
  private async *records(
    type: OktaResourceType,
    signal?: AbortSignal,
    pass?: ParentPass<ParentRef>,
  ): AsyncGenerator<ResourceRecord> {
    let complete = false;
    try {
      for await (const page of this.pages(type, signal)) {
        for (const { record, keys } of page) {
          pass?.keep({ id: record.id, keys: keys ?? {} });
          yield record;
        }
      }
      complete = true;
      pass?.complete();
    } finally {
      if (!complete)
        pass?.stop(new ProviderError(`the ${type} listing stopped before its end`, 'collection_stopped'));
    }
  }

  /** Pages of `type`; `filter` (top-level and user types only) restricts the listing. */
  private pages(type: OktaResourceType, signal?: AbortSignal, filter?: string): Pages {
    const definition = RESOURCE_DEFINITIONS[type] as ResourceDefinition;
    switch (definition.kind) {
      case 'top':
        return this.topLevel(type, definition, signal, filter);
      case 'single':
        return this.single(type, definition, signal);
      case 'child':
        return this.childrenOfAll(type, definition, signal);
      case 'child_objects':
        return this.childObjects(type, definition, signal);
      case 'derived':
        return this.derived(type, definition, signal);
      case 'users':
        return this.users(signal, filter);
      case 'policies':
        return this.policies(signal);
      case 'admin_roles':
        return this.adminRoles(signal);
    }
  }

  private async *topLevel(
    type: OktaResourceType,
    definition: TopLevelDefinition,
    signal?: AbortSignal,
    filter?: string,
  ): Pages {
    const list: ListRequest = {
      template: definition.template,
      query: filter === undefined ? definition.query : { ...definition.query, filter },
      itemsKey: definition.itemsKey,
      signal,
    };
    for await (const page of this.api.pages(list)) {
      if (!definition.detail) {
        yield page.map((object) => item(type, keyOf(object, list, definition.key), definition, object));
        continue;
      }
      // Summaries: each object is read in full, `width` at a time, in list order.
      const ids = page.map((summary) => keyOf(summary, list));
      yield* inOrderConcurrent(ids, (id) => this.detail(type, definition, id, signal), this.width);
    }
  }

  /** One listed object read in full; none when it was deleted since it was listed. */
  private async *detail(
    type: OktaResourceType,
    definition: TopLevelDefinition,
    id: string,
    signal?: AbortSignal,
  ): Pages {
    const { template, param } = definition.detail as { template: string; param: string };
    const object = await this.api.object({ template, params: { [param]: id }, emptyOn: [404], signal });
    if (object) yield [item(type, id, definition, object)];
  }

  private async *single(type: OktaResourceType, definition: SingleDefinition, signal?: AbortSignal): Pages {
    const object = await this.api.object({ template: definition.template, emptyOn: [404], signal });
    if (object) yield [{ record: record(type, definition.id, definition.name(object), object) }];
  }

  /**
   * Okta's list users omits DEPROVISIONED users (OpenAPI listUsers: "To return all users, use a
   * filter or search query instead"), so a second query fetches them:
   * `search=status eq "DEPROVISIONED"`. Ids of the first pass are kept so a user who appears
   * in both (deprovisioned between the queries, or an org that already lists them) is yielded
   * once; ids only, about 70 bytes a user. With `filter` (which returns every status), one
   * query.
   */
  private async *users(signal?: AbortSignal, filter?: string): Pages {
    const name = RESOURCE_DEFINITIONS.user.name;
    const { queries, isNew } = usersQueries(signal, filter);
    for (const list of queries) {
      for await (const page of this.api.pages(list)) {
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
  private async *encodedUsers(signal?: AbortSignal, filter?: string): AsyncGenerator<EncodedRecords> {
    const { encode, volatileFields } = this.encoding as CollectorEncoding;
    const { queries, isNew } = usersQueries(signal, filter);
    for (const list of queries) {
      let pending: Promise<EncodedRecords> | undefined;
      for await (const body of this.api.pageBodies(list)) {
        const next = encode({ type: 'user', template: list.template, body, volatileFields });
        // Awaited at its turn; until then (or if the backup stops first) a failure is not "unhandled".
        next.catch(() => undefined);
        if (pending) yield keepRecords(await pending, isNew);
        pending = next;
      }
      if (pending) yield keepRecords(await pending, isNew);
    }
  }

  /** One list per policy type; a type the org rejects with 400 (not enabled there) is skipped. */
  private async *policies(signal?: AbortSignal): Pages {
    const definition = RESOURCE_DEFINITIONS.policy;
    for (const type of POLICY_TYPES) {
      const list: ListRequest = { template: POLICIES_TEMPLATE, query: { type }, emptyOn: [400], signal };
      for await (const page of this.api.pages(list)) {
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
  private async *adminRoles(signal?: AbortSignal): Pages {
    const assignees: ListRequest = {
      template: ROLE_ASSIGNEES_TEMPLATE,
      query: { limit: PAGE_LIMITS.iamResources },
      itemsKey: 'value',
      signal,
    };
    for await (const page of this.api.pages(assignees)) {
      const userIds = page.map((user) => keyOf(user, assignees));
      const open = (userId: string) => this.rolesOf(USER_ROLES_TEMPLATE, { userId }, userId, 'USER', signal);
      yield* inOrderConcurrent(userIds, open, this.width);
    }
    const open = (groupId: string) =>
      this.rolesOf(GROUP_ROLES_TEMPLATE, { groupId }, groupId, 'GROUP', signal);
    yield* inOrderConcurrent(await this.adminGroupIds(signal), open, this.width);
  }

  /**
   * The groups that may hold roles: `expand=stats` lists each group with
   * `_embedded.stats.hasAdminPrivilege` ("has admin privileges via a group-level role
   * assignment", listGroups; `hasAdminPrivlege` in the OpenAPI), one request per 10,000 groups
   * instead of one per group. A group whose stats do not say false is asked.
   */
  private async adminGroupIds(signal?: AbortSignal): Promise<string[]> {
    const list: ListRequest = {
      template: GROUPS_TEMPLATE,
      query: { limit: PAGE_LIMITS.groups, expand: 'stats' },
      signal,
    };
    const ids: string[] = [];
    for await (const page of this.api.pages(list))
      for (const group of page) {
        const stats = (group._embedded as { stats?: Record<string, unknown> } | undefined)?.stats;
        if ((stats?.hasAdminPrivilege ?? stats?.hasAdminPrivlege) !== false) ids.push(keyOf(group, list));
      }
    return ids;
  }

  /** The roles `owner` holds as `assignmentType` (USER or GROUP); a deleted owner has none. */
  private async *rolesOf(
    template: string,
    params: Record<string, string>,
    owner: string,
    assignmentType: string,
    signal?: AbortSignal,
  ): Pages {
    const definition = RESOURCE_DEFINITIONS.admin_role_assignment;
    const list: ListRequest = { template, params, emptyOn: [404], signal };
    for await (const page of this.api.pages(list))
      yield page
        .filter((role) => role.assignmentType === undefined || role.assignmentType === assignmentType)
        .map((role) => item('admin_role_assignment', `${owner}:${keyOf(role, list)}`, definition, role));
  }

  private async *childrenOfAll(
    type: OktaResourceType,
    definition: ChildDefinition,
    signal?: AbortSignal,
  ): Pages {
    yield* this.children(type, definition, await this.refsOf(definition.parent, signal), signal);
  }

  /**
   * Lists children of `parents`, `width` parents at once, yielding in parent order. A parent
   * deleted since it was listed answers 404: it has no children left to back up.
   */
  private children(
    type: OktaResourceType,
    definition: ChildDefinition,
    parents: readonly ParentRef[],
    signal?: AbortSignal,
  ): Pages {
    const wanted = definition.applies ? parents.filter(definition.applies) : parents;
    return inOrderConcurrent(
      wanted,
      (parent) => this.childPages(type, definition, parent, signal),
      this.width,
    );
  }

  private async *childPages(
    type: OktaResourceType,
    definition: ChildDefinition,
    parent: ParentRef,
    signal?: AbortSignal,
  ): Pages {
    const list = childList(definition, parent, signal);
    for await (const page of this.api.pages(list)) yield childItems(type, definition, parent, list, page);
  }

  /**
   * Children of `parents` (default: every parent), encoded page by page, as `children` lists
   * them. Each page's body goes to the encoder unparsed, and its lane fetches the next page while
   * the encoder works, so fetching and encoding overlap even within one parent's list.
   */
  private async *encodedChildren(
    type: OktaResourceType,
    definition: ChildDefinition,
    parents: readonly ParentRef[] | undefined,
    signal?: AbortSignal,
  ): AsyncGenerator<EncodedRecords> {
    const all = parents ?? (await this.refsOf(definition.parent, signal));
    const wanted = definition.applies ? all.filter(definition.applies) : all;
    const open = (parent: ParentRef) => this.encodingChildPages(type, definition, parent, signal);
    for await (const { encoded } of inOrderConcurrent(wanted, open, this.width)) yield await encoded;
  }

  /** Pages of `parent`'s children, each as its encoding, begun as soon as the page arrives. */
  private async *encodingChildPages(
    type: OktaResourceType,
    definition: ChildDefinition,
    parent: ParentRef,
    signal?: AbortSignal,
  ): AsyncGenerator<{ encoded: Promise<EncodedRecords> }> {
    const { encode, volatileFields } = this.encoding as CollectorEncoding;
    const list = childList(definition, parent, signal);
    for await (const body of this.api.pageBodies(list)) {
      const encoded = encode({ type, parent, template: list.template, body, volatileFields });
      // Awaited at its turn; until then (or if the backup stops first) a failure is not "unhandled".
      encoded.catch(() => undefined);
      yield { encoded };
    }
  }

  private async *childObjects(
    type: OktaResourceType,
    definition: ChildObjectsDefinition,
    signal?: AbortSignal,
  ): Pages {
    const parents = await this.refsOf(definition.parent, signal);
    const wanted = definition.applies ? parents.filter(definition.applies) : parents;
    yield* inOrderConcurrent(
      wanted,
      (parent) => this.objectsOf(type, definition, parent, signal),
      this.width,
    );
  }

  /** The parent's fixed objects, one request each; those answering `emptyOn` have no record. */
  private async *objectsOf(
    type: OktaResourceType,
    definition: ChildObjectsDefinition,
    parent: ParentRef,
    signal?: AbortSignal,
  ): Pages {
    const params = definition.params(parent);
    const emptyOn = definition.emptyOn ?? [404];
    for (const { key, template } of definition.objects) {
      const object = await this.api.object({ template, params, emptyOn, signal });
      if (object) yield [{ record: record(type, `${parent.id}:${key}`, definition.name(object), object) }];
    }
  }

  private async *derived(type: OktaResourceType, definition: DerivedDefinition, signal?: AbortSignal): Pages {
    const items: Item[] = [];
    for (const parent of await this.refsOf(definition.parent, signal)) {
      const child = definition.derive(parent);
      if (child) items.push({ record: record(type, `${parent.id}:${child.key}`, null, child.data) });
    }
    yield items;
  }

  /** The parent's references (ParentPasses.refsOf). */
  private refsOf(type: OktaResourceType, signal?: AbortSignal): Promise<ParentRef[]> {
    return this.passes.refsOf(type, signal);
  }

  /** Lists `type` for its references only; with `filter`, a restricted listing (not kept). */
  private async listRefs(
    type: OktaResourceType,
    signal?: AbortSignal,
    filter?: string,
  ): Promise<ParentRef[]> {
    const refs: ParentRef[] = [];
    for await (const page of this.pages(type, signal, filter))
      for (const { record: each, keys } of page) refs.push({ id: each.id, keys: keys ?? {} });
    return refs;
  }
}

/** The list of `parent`'s children. */
function childList(definition: ChildDefinition, parent: ParentRef, signal?: AbortSignal): ListRequest {
  const { template } = definition;
  return {
    template: typeof template === 'string' ? template : template(parent),
    params: definition.params(parent),
    query: definition.query,
    itemsKey: definition.itemsKey,
    emptyOn: definition.emptyOn ?? [404],
    signal,
  };
}

function incrementalOf(definition: ResourceDefinition) {
  return 'incremental' in definition ? definition.incremental : undefined;
}

async function* unwrap(pages: Pages): AsyncGenerator<ResourceRecord> {
  for await (const page of pages) for (const { record: each } of page) yield each;
}

/**
 * The queries that list every user (OktaCollector `users`), and whether an id is listed for the
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
