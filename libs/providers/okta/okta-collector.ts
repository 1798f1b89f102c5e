import type { EncodedRecords } from '@libs/snapshot/encoded-records.js';

import type { EncodedResourcePart, PartDelta } from '@libs/providers/provider-connector.js';
import { ProviderError } from '@libs/providers/provider-errors.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';
import { withPass } from '@libs/providers/kit/catalog-collector.js';
import { inOrderConcurrent } from '@libs/providers/kit/in-order-concurrent.js';
import { type ParentPass, ParentPasses } from '@libs/providers/kit/parent-passes.js';
import { ENCODABLE_TYPES } from './okta-list-page.js';
import type { ListRequest, OktaApiClient } from './okta-api-client.js';
import type {
  ChildDefinition,
  ParentRef,
  ResourceDefinition,
  TopLevelDefinition,
} from './okta-catalog-types.js';
import {
  adminRoles,
  type CollectorEncoding,
  encodedUsers,
  type OktaHookContext,
  policies,
  users,
} from './okta-collector-hooks.js';
import { childObjects, derived, single } from './okta-fixed-objects.js';
import { childItems, item, keyOf, type Item } from './okta-records.js';
import { RESOURCE_DEFINITIONS } from './okta-resource-catalog.js';

type Pages = AsyncGenerator<Item[]>;

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
  private readonly hooks: OktaHookContext;

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
    this.hooks = { api, width };
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
          ? encodedUsers(this.hooks, this.encoding as CollectorEncoding, signal, filter)
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
    if (encoded && definition.kind === 'users')
      return { type, records: encodedUsers(this.hooks, this.encoding as CollectorEncoding, signal) };
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
    const items = withPass(
      unwrapItems(this.pages(type, signal)),
      pass,
      ({ record: each, keys }) => ({ id: each.id, keys: keys ?? {} }),
      () => new ProviderError(`the ${type} listing stopped before its end`, 'collection_stopped'),
    );
    for await (const { record: each } of items) yield each;
  }

  /** Pages of `type`; `filter` (top-level and user types only) restricts the listing. */
  private pages(type: OktaResourceType, signal?: AbortSignal, filter?: string): Pages {
    const definition = RESOURCE_DEFINITIONS[type] as ResourceDefinition;
    switch (definition.kind) {
      case 'top':
        return this.topLevel(type, definition, signal, filter);
      case 'single':
        return single(this.hooks, type, definition, signal);
      case 'child':
        return this.childrenOfAll(type, definition, signal);
      case 'child_objects':
        return childObjects(
          this.hooks,
          type,
          definition,
          () => this.refsOf(definition.parent, signal),
          signal,
        );
      case 'derived':
        return derived(type, definition, () => this.refsOf(definition.parent, signal));
      case 'users':
        return users(this.hooks, signal, filter);
      case 'policies':
        return policies(this.hooks, signal);
      case 'admin_roles':
        return adminRoles(this.hooks, signal);
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

async function* unwrapItems(pages: Pages): AsyncGenerator<Item> {
  for await (const page of pages) yield* page;
}
