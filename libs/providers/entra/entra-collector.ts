import type { EncodedRecords } from '@libs/snapshot/encoded-records.js';

import { encodedPages, withPass } from '@libs/providers/kit/catalog-collector.js';
import { inOrderConcurrent } from '@libs/providers/kit/in-order-concurrent.js';
import { ParentPasses } from '@libs/providers/kit/parent-passes.js';
import type { ParentRef } from '@libs/providers/kit/resource-catalog.js';
import { ProviderError, ProviderRequestError } from '@libs/providers/provider-errors.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { DeltaRound } from './entra-delta.js';
import { ENCODABLE_TYPES, type EntraEncodedPage, type EntraListPageTask } from './entra-list-page.js';
import { sharedListing, sharingTypes, answeredPart, type SharedListing } from './entra-shared-listing.js';
import { entraChildRecord, entraRecord } from './entra-records.js';
import {
  type EntraChildDefinition,
  type EntraEmbeddedDefinition,
  type EntraExtensionValuesDefinition,
  type EntraSingleDefinition,
  type EntraTopDefinition,
  parentRef,
} from './entra-catalog-types.js';
import {
  ENTRA_TYPE_DEFINITIONS,
  type EntraResourceType,
  type EntraTypeDefinition,
} from './entra-resource-catalog.js';
import type { GraphApiClient, GraphObject, GraphRead } from './graph-api-client.js';

/** Encoding of records for a snapshot (EncodedCollectOptions). */
export interface EntraEncoding {
  /** Encodes one page (on a worker thread: entra-page-worker.ts). */
  encode: (task: EntraListPageTask) => Promise<EntraEncodedPage>;
  volatileFields: readonly string[];
}

/**
 * Reads the parts of one Entra ID collection from Graph (EntraConnector.collect), type by type
 * of ENTRA_TYPE_DEFINITIONS, by the kinds of the kit's vocabulary (entra-catalog-types.ts): a
 * `child` (members, owners, credentials, assignments) one parent at a time, several at once,
 * streamed in the parents' order, from the parent objects of the parent part's pass (kit
 * ParentPasses) or a listing of the parent when that part is not collected or is a delta; an
 * `embedded` type from its parents' answers; a `top` type listed; a `single` read as its one
 * object. A delta part's records are the changes of its round (`changes`).
 */
export class EntraCollector {
  private readonly passes: ParentPasses<EntraResourceType, GraphObject>;
  /** The objects of each `extension_values` hook's `definitions` type, kept when its part was read whole. */
  private readonly learned = new Map<EntraResourceType, GraphObject[]>();
  /**
   * Per type listed in another's pass (`sharedWith`, entra-shared-listing.ts), its records from
   * that pass, kept when the pass ended whole, until its own part is read.
   */
  private readonly sharedParts = new Map<
    EntraResourceType,
    Array<ResourceRecord | Promise<EncodedRecords>>
  >();

  /**
   * @param width lists (or JSON batches) read at once, >= 1
   * @param parents types whose objects children will need, kept as they stream
   * @param seen users listed so far, counted up here: the tenant's size, which sets Graph's
   *   resource-unit budget (graph-rate-limits.ts)
   * @param encoding when set, the listed parts of ENCODABLE_TYPES come encoded (EncodedRecords)
   * @param collected the types of this collection: a type whose `sharedWith` is among them
   *   comes from that type's listing when it is read whole
   */
  constructor(
    private readonly graph: GraphApiClient,
    private readonly width: number,
    parents: ReadonlySet<EntraResourceType>,
    private readonly seen: { users: number },
    private readonly encoding?: EntraEncoding,
    private readonly collected: ReadonlySet<EntraResourceType> = new Set(),
  ) {
    this.passes = new ParentPasses(parents, async (type, signal) => {
      const objects: GraphObject[] = [];
      // Parents are the tenant's lists and singletons, read whole.
      const definition = ENTRA_TYPE_DEFINITIONS[type] as EntraTopDefinition | EntraSingleDefinition;
      for await (const object of this.objects(definition, {}, signal)) objects.push(object);
      return objects;
    });
  }

  /** A delta part's records: the round's changed objects read whole, or its added memberships. */
  async *changes(
    type: EntraResourceType,
    round: DeltaRound,
    signal?: AbortSignal,
  ): AsyncIterable<ResourceRecord> {
    const definition = ENTRA_TYPE_DEFINITIONS[type];
    if (definition.deltaOf) {
      for (const change of round.links.get(definition.deltaOf.relationship)?.values() ?? [])
        if (!change.removed)
          yield entraChildRecord(type, change.parentId, {
            id: change.id,
            '@odata.type': `#microsoft.graph.${change.type}`,
          });
      return;
    }
    // Read whole in JSON batches of 20 ids, several batches at once, in the round's order.
    const batches: string[][] = [];
    for (let at = 0; at < round.changed.length; at += 20) batches.push(round.changed.slice(at, at + 20));
    const read = (ids: string[]): AsyncIterator<ResourceRecord> =>
      (async function* (graph: GraphApiClient) {
        const objects = await graph.objectsIfFound(
          ids.map((id) => ({
            template: `${definition.template}/{id}`,
            params: { id },
            select: definition.select,
          })),
          signal,
        );
        // An object deleted since the round is not there: the next round reports it removed.
        for (const object of objects) if (object) yield entraRecord(type, object);
      })(this.graph);
    yield* inOrderConcurrent(batches, read, this.width);
  }

  /** A full part's records, as objects are read: encoded (EncodedRecords) for ENCODABLE_TYPES with an encoding. */
  part(type: EntraResourceType, signal?: AbortSignal): AsyncIterable<ResourceRecord | EncodedRecords> {
    const kept = this.sharedParts.get(type);
    if (kept) {
      this.sharedParts.delete(type);
      return keptRecords(kept);
    }
    return this.encoding !== undefined && ENCODABLE_TYPES.has(type)
      ? this.encodedPart(type, this.encoding.volatileFields, signal)
      : this.records(type, signal);
  }

  private async *records(type: EntraResourceType, signal?: AbortSignal): AsyncIterable<ResourceRecord> {
    const definition = ENTRA_TYPE_DEFINITIONS[type];
    if (definition.kind === 'extension_values') return yield* this.extensionValues(type, definition, signal);
    if (definition.kind === 'child' || definition.kind === 'embedded') {
      // Several parents' children in flight at once, streamed in the parents' order.
      const parents = await this.passes.refsOf(definition.parent, signal);
      const records =
        definition.kind === 'embedded'
          ? inOrderConcurrent(parents, (parent) => embedded(type, definition, parent), 1)
          : inOrderConcurrent(
              parents,
              (parent) => this.children(type, definition, parent, signal),
              this.width,
            );
      if (!LEARNED_TYPES.has(type)) return yield* records;
      const kept: GraphObject[] = [];
      for await (const record of records) {
        kept.push(record.data);
        yield record;
      }
      this.learned.set(type, kept);
      return;
    }
    const listing = this.sharedListingOf(type);
    const objects = withPass(
      this.objects(listing ? { ...definition, ...listing } : definition, {}, signal),
      this.passes.begin(type),
      (object) => object,
      () => new ProviderError(`the ${type} part stopped before its end`, 'part_stopped'),
    );
    const [own, ...others] = listing?.properties ?? [];
    const kept = others.map(() => [] as ResourceRecord[]);
    for await (const object of objects) {
      if (type === 'user') this.seen.users++;
      others.forEach((other, index) =>
        kept[index].push(entraRecord(other.type, answeredPart(object, other.properties))),
      );
      yield entraRecord(type, own ? answeredPart(object, own.properties) : object);
    }
    others.forEach((other, index) => this.sharedParts.set(other.type, kept[index]));
  }

  /** The one listing of a top `type` and the types sharing it, when any is collected (entra-shared-listing.ts). */
  private sharedListingOf(type: EntraResourceType): SharedListing | undefined {
    if (ENTRA_TYPE_DEFINITIONS[type].kind !== 'top') return undefined;
    const sharing = sharingTypes(ENTRA_TYPE_DEFINITIONS, type, this.collected);
    return sharing.length > 0 ? sharedListing(ENTRA_TYPE_DEFINITIONS, type, sharing) : undefined;
  }

  /**
   * The records of `type` (ENCODABLE_TYPES) encoded for a snapshot, as `part` reads them: a type
   * read under a parent from several parents at once, streamed in the parents' order.
   */
  private async *encodedPart(
    type: EntraResourceType,
    volatileFields: readonly string[],
    signal?: AbortSignal,
  ): AsyncGenerator<EncodedRecords> {
    const definition = ENTRA_TYPE_DEFINITIONS[type] as EntraTopDefinition | EntraChildDefinition;
    if (definition.kind === 'top') return yield* this.encodedPages(type, volatileFields, undefined, signal);
    const parents = await this.passes.refsOf(definition.parent, signal);
    yield* inOrderConcurrent(
      parents,
      (object) => this.encodedPages(type, volatileFields, parentRef(object), signal),
      this.width,
    );
  }

  /**
   * The pages of `type` (under `parent`) encoded for a snapshot, each on a worker thread while
   * the next one is fetched (kit PageEncoderPool, as Okta's users).
   */
  private async *encodedPages(
    type: EntraResourceType,
    volatileFields: readonly string[],
    parent: ParentRef | undefined,
    signal?: AbortSignal,
  ): AsyncGenerator<EncodedRecords> {
    const definition = ENTRA_TYPE_DEFINITIONS[type] as EntraTopDefinition | EntraChildDefinition;
    const params = parent && definition.kind === 'child' ? definition.params(parent) : undefined;
    const listing = parent ? undefined : this.sharedListingOf(type);
    const read = {
      ...graphRead(listing ? { ...definition, ...listing } : definition, params ?? {}, signal),
      paged: definition.top === true,
    };
    const [own, ...others] = listing?.properties ?? [];
    const kept = others.map(() => [] as Array<Promise<EncodedRecords>>);
    const encode = (body: Uint8Array<ArrayBuffer>) => {
      const page = (this.encoding as EntraEncoding).encode({
        type,
        parentId: parent?.id,
        template: definition.template,
        body,
        volatileFields,
        shared: own && { properties: own.properties, others },
      });
      others.forEach((_, index) => {
        const records = page.then((encoded) => encoded.others![index].records);
        // Awaited when its part is read; until then (or if the backup stops first) not "unhandled".
        records.catch(() => undefined);
        kept[index].push(records);
      });
      return page;
    };
    for await (const encoded of encodedPages(this.graph.pageBodies(read), encode)) {
      if (type === 'user') this.seen.users += encoded.ids.length;
      const { others: _others, ...records } = encoded as EntraEncodedPage;
      yield records;
    }
    others.forEach((other, index) => this.sharedParts.set(other.type, kept[index]));
  }

  /**
   * The objects of a type as Graph returns them: each page of a list, or the one object of a
   * singleton or `object` child (none when it answers one of the child's `emptyOn`).
   */
  private async *objects(
    definition: Exclude<EntraTypeDefinition, EntraEmbeddedDefinition>,
    params: Record<string, string>,
    signal?: AbortSignal,
  ): AsyncGenerator<GraphObject> {
    const read = graphRead(definition, params, signal);
    if (definition.kind === 'single' || (definition.kind === 'child' && definition.object)) {
      const emptyOn = definition.kind === 'child' ? (definition.emptyOn ?? []) : [];
      const object = await this.graph.object(read).catch((error: unknown) => {
        if (error instanceof ProviderRequestError && emptyOn.includes(error.status)) return undefined;
        throw error;
      });
      if (object) yield object;
      return;
    }
    for await (const page of this.graph.pages({ ...read, paged: definition.top === true })) yield* page;
  }

  /**
   * Entra's `extension_values` hook: each object of the definition's list, read with `$select` of
   * its `id` and the names of the `definitions` objects that target it (kept from that part when
   * it was read whole in this backup, else read now), as a record of the extensions it has a
   * value of (Graph answers null or nothing for the others). None without such extensions: no
   * object can have a value.
   */
  private async *extensionValues(
    type: EntraResourceType,
    definition: EntraExtensionValuesDefinition,
    signal?: AbortSignal,
  ): AsyncGenerator<ResourceRecord> {
    let definitions = this.learned.get(definition.definitions);
    if (!definitions) {
      definitions = [];
      for await (const record of this.records(definition.definitions, signal))
        definitions.push((record as ResourceRecord).data);
    }
    const names = definitions
      .filter(
        (object) => Array.isArray(object.targetObjects) && object.targetObjects.includes(definition.target),
      )
      .map((object) => String(object.name));
    if (names.length === 0) return;
    const read = { ...graphRead(definition, {}, signal), select: ['id', ...new Set(names)], paged: true };
    for await (const page of this.graph.pages(read))
      for (const object of page) {
        const values = Object.fromEntries(
          names.filter((name) => object[name] != null).map((name) => [name, object[name]]),
        );
        yield entraRecord(type, { id: object.id, ...values });
      }
  }

  /** The records of `type` under one parent object (ENTRA_TYPE_DEFINITIONS `parent`). */
  private async *children(
    type: EntraResourceType,
    definition: EntraChildDefinition,
    parent: GraphObject,
    signal?: AbortSignal,
  ): AsyncGenerator<ResourceRecord> {
    const ref = parentRef(parent);
    for await (const object of this.objects(definition, definition.params(ref), signal))
      yield entraChildRecord(type, ref.id, object);
  }
}

/** The types an `extension_values` hook reads its extension names from. */
const LEARNED_TYPES: ReadonlySet<EntraResourceType> = new Set(
  Object.values(ENTRA_TYPE_DEFINITIONS).flatMap((definition) =>
    definition.kind === 'extension_values' ? [definition.definitions] : [],
  ),
);

/** Records kept from a shared listing (EntraCollector `sharedParts`), in the listing's order. */
async function* keptRecords(
  kept: ReadonlyArray<ResourceRecord | Promise<EncodedRecords>>,
): AsyncGenerator<ResourceRecord | EncodedRecords> {
  for (const item of kept) yield await item;
}

/** Entra's `embedded` hook: the objects in one parent object's answer, as records of `type`. */
async function* embedded(
  type: EntraResourceType,
  definition: EntraEmbeddedDefinition,
  parent: GraphObject,
): AsyncGenerator<ResourceRecord> {
  const objects = parent[definition.member];
  for (const object of Array.isArray(objects) ? (objects as GraphObject[]) : [])
    yield entraRecord(type, object);
}

/** The Graph read of a type's template: only ids of a link, else the type's `$select`. */
function graphRead(
  definition: EntraTypeDefinition,
  params: Record<string, string>,
  signal?: AbortSignal,
): GraphRead {
  return {
    template: definition.template,
    params,
    select: definition.link ? ['id'] : definition.select,
    query: 'query' in definition ? definition.query : undefined,
    signal,
  };
}
