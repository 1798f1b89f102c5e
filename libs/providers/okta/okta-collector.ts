import { ProviderRequestError } from '../provider-errors.js';
import type { OktaResourceType, ResourceRecord } from '../resource-types.js';
import { inOrderConcurrent } from './in-order-concurrent.js';
import type { ListRequest, OktaApiClient, OktaObject } from './okta-api-client.js';
import {
  DEPROVISIONED_USERS_SEARCH,
  PAGE_LIMITS,
  POLICIES_TEMPLATE,
  POLICY_TYPES,
  RESOURCE_DEFINITIONS,
  USERS_TEMPLATE,
  type ChildDefinition,
  type TopLevelDefinition,
} from './okta-resource-catalog.js';

/**
 * Streams the records of each Okta type page by page. Only parent ids are kept (group ids to
 * list memberships...): remembered while the parent type streams, or listed on demand when the
 * parent type was not collected.
 */
export class OktaCollector {
  private readonly parentIds = new Map<OktaResourceType, string[]>();

  /**
   * @param width child lists fetched at once (members of several groups), >= 1.
   * @param parents types whose ids children will need, remembered as they stream.
   */
  constructor(
    private readonly api: OktaApiClient,
    private readonly width: number,
    private readonly parents: ReadonlySet<OktaResourceType>,
  ) {}

  /** The records of `type`, yielded as pages arrive. */
  async *records(type: OktaResourceType, signal?: AbortSignal): AsyncGenerator<ResourceRecord> {
    const ids: string[] | undefined = this.parents.has(type) ? [] : undefined;
    for await (const page of this.pages(type, signal)) {
      for (const record of page) {
        ids?.push(record.id);
        yield record;
      }
    }
    // Only a complete pass may stand in for the parent's listing.
    if (ids) this.parentIds.set(type, ids);
  }

  private pages(type: OktaResourceType, signal?: AbortSignal): AsyncGenerator<ResourceRecord[]> {
    const definition = RESOURCE_DEFINITIONS[type];
    switch (definition.kind) {
      case 'top':
        return this.topLevel(type, definition, signal);
      case 'child':
        return this.children(type, definition, signal);
      case 'users':
        return this.users(signal);
      case 'policies':
        return this.policies(signal);
    }
  }

  private async *topLevel(
    type: OktaResourceType,
    definition: TopLevelDefinition,
    signal?: AbortSignal,
  ): AsyncGenerator<ResourceRecord[]> {
    const list = { template: definition.template, query: definition.query, signal };
    for await (const page of this.api.pages(list)) {
      yield page.map((object) => record(type, idOf(object, list), definition.name(object), object));
    }
  }

  /**
   * Okta's list users omits DEPROVISIONED users (OpenAPI listUsers: "To return all users, use a
   * filter or search query instead"), so a second query fetches them:
   * `search=status eq "DEPROVISIONED"`. Ids of the first pass are kept so a user who appears
   * in both (deprovisioned between the queries, or an org that already lists them) is yielded
   * once; ids only, about 70 bytes a user.
   */
  private async *users(signal?: AbortSignal): AsyncGenerator<ResourceRecord[]> {
    const name = RESOURCE_DEFINITIONS.user.name;
    const seen = new Set<string>();
    const queries: ListRequest[] = [
      { template: USERS_TEMPLATE, query: { limit: PAGE_LIMITS.users }, signal },
      {
        template: USERS_TEMPLATE,
        query: { search: DEPROVISIONED_USERS_SEARCH, limit: PAGE_LIMITS.users },
        signal,
      },
    ];
    for (const list of queries) {
      for await (const page of this.api.pages(list)) {
        const fresh: ResourceRecord[] = [];
        for (const object of page) {
          const id = idOf(object, list);
          if (seen.has(id)) continue;
          seen.add(id);
          fresh.push(record('user', id, name(object), object));
        }
        yield fresh;
      }
    }
  }

  /** One list per policy type; a type the org rejects with 400 (not enabled there) is skipped. */
  private async *policies(signal?: AbortSignal): AsyncGenerator<ResourceRecord[]> {
    const name = RESOURCE_DEFINITIONS.policy.name;
    for (const type of POLICY_TYPES) {
      const list: ListRequest = { template: POLICIES_TEMPLATE, query: { type }, emptyOn: [400], signal };
      for await (const page of this.api.pages(list)) {
        yield page.map((object) => record('policy', idOf(object, list), name(object), object));
      }
    }
  }

  /**
   * Lists children of every parent, `width` parents at once, yielding in parent order. A parent
   * deleted since it was listed answers 404: it has no children left to back up.
   */
  private async *children(
    type: OktaResourceType,
    definition: ChildDefinition,
    signal?: AbortSignal,
  ): AsyncGenerator<ResourceRecord[]> {
    const parentIds = await this.idsOf(definition.parent, signal);
    const open = (parentId: string): AsyncIterator<ResourceRecord[]> =>
      this.childPages(type, definition, parentId, signal);
    yield* inOrderConcurrent(parentIds, open, this.width);
  }

  private async *childPages(
    type: OktaResourceType,
    definition: ChildDefinition,
    parentId: string,
    signal?: AbortSignal,
  ): AsyncGenerator<ResourceRecord[]> {
    const list: ListRequest = {
      template: definition.template,
      params: definition.params(parentId),
      query: definition.query,
      emptyOn: [404],
      signal,
    };
    for await (const page of this.api.pages(list)) {
      yield page.map((object) => {
        const childId = idOf(object, list);
        const data = definition.data ? definition.data(parentId, childId) : object;
        return record(type, `${parentId}:${childId}`, definition.name(object), data);
      });
    }
  }

  /** The parent's record ids: remembered from its pass, else listed now (and remembered). */
  private async idsOf(type: OktaResourceType, signal?: AbortSignal): Promise<string[]> {
    let ids = this.parentIds.get(type);
    if (!ids) {
      ids = [];
      for await (const page of this.pages(type, signal)) ids.push(...page.map((each) => each.id));
      this.parentIds.set(type, ids);
    }
    return ids;
  }
}

function record(
  type: OktaResourceType,
  id: string,
  name: string | null,
  data: Record<string, unknown>,
): ResourceRecord {
  return { type, id, name, data };
}

/** The object's Okta `id`; an object without one is a broken answer, not something to skip. */
function idOf(object: OktaObject, list: ListRequest): string {
  if (typeof object.id !== 'string' || object.id === '') {
    throw new ProviderRequestError(`Okta listed an object without an id at GET ${list.template}`, 200);
  }
  return object.id;
}
