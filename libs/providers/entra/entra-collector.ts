import type { EncodedRecords } from '@libs/snapshot/encoded-records.js';

import { encodedPages, withPass } from '@libs/providers/kit/catalog-collector.js';
import { inOrderConcurrent } from '@libs/providers/kit/in-order-concurrent.js';
import { ParentPasses } from '@libs/providers/kit/parent-passes.js';
import { ProviderError, ProviderRequestError } from '@libs/providers/provider-errors.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { DeltaRound } from './entra-delta.js';
import { ENCODABLE_TYPES, type EntraListPageTask } from './entra-list-page.js';
import { entraChildRecord, entraRecord } from './entra-records.js';
import { ENTRA_TYPE_DEFINITIONS, type EntraResourceType } from './entra-resource-catalog.js';
import type { GraphApiClient, GraphObject } from './graph-api-client.js';

/** Encoding of records for a snapshot (EncodedCollectOptions). */
export interface EntraEncoding {
  /** Encodes one page (on a worker thread: entra-page-worker.ts). */
  encode: (task: EntraListPageTask) => Promise<EncodedRecords>;
  volatileFields: readonly string[];
}

/**
 * Reads the parts of one Entra ID collection from Graph (EntraConnector.collect), type by type
 * of ENTRA_TYPE_DEFINITIONS: a type read under a parent (members, owners, credentials,
 * assignments: `parent`) one parent at a time, several at once, streamed in the parents' order,
 * from the parent objects of the parent part's pass (kit ParentPasses) or a listing of the parent
 * when that part is not collected or is a delta; the others listed, or read as the one object of
 * a singleton. A delta part's records are the changes of its round (`changes`).
 */
export class EntraCollector {
  private readonly passes: ParentPasses<EntraResourceType, GraphObject>;

  /**
   * @param width lists (or JSON batches) read at once, >= 1
   * @param parents types whose objects children will need, kept as they stream
   * @param seen users listed so far, counted up here: the tenant's size, which sets Graph's
   *   resource-unit budget (graph-rate-limits.ts)
   * @param encoding when set, the listed parts of ENCODABLE_TYPES come encoded (EncodedRecords)
   */
  constructor(
    private readonly graph: GraphApiClient,
    private readonly width: number,
    parents: ReadonlySet<EntraResourceType>,
    private readonly seen: { users: number },
    private readonly encoding?: EntraEncoding,
  ) {
    this.passes = new ParentPasses(parents, async (type, signal) => {
      const objects: GraphObject[] = [];
      for await (const object of this.objects(type, {}, signal)) objects.push(object);
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
            template: `${definition.path}/{id}`,
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
    return this.encoding !== undefined && ENCODABLE_TYPES.has(type)
      ? this.encodedPart(type, this.encoding.volatileFields, signal)
      : this.records(type, signal);
  }

  private async *records(type: EntraResourceType, signal?: AbortSignal): AsyncIterable<ResourceRecord> {
    const definition = ENTRA_TYPE_DEFINITIONS[type];
    if (definition.parent) {
      // Several parents' children in flight at once, streamed in the parents' order.
      const parents = await this.passes.refsOf(definition.parent, signal);
      yield* inOrderConcurrent(
        parents,
        (parent) => this.children(type, parent, signal),
        definition.embeddedIn ? 1 : this.width,
      );
      return;
    }
    const objects = withPass(
      this.objects(type, {}, signal),
      this.passes.begin(type),
      (object) => object,
      () => new ProviderError(`the ${type} part stopped before its end`, 'part_stopped'),
    );
    for await (const object of objects) {
      if (type === 'user') this.seen.users++;
      yield entraRecord(type, object);
    }
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
    const { parent } = ENTRA_TYPE_DEFINITIONS[type];
    if (!parent) return yield* this.encodedPages(type, volatileFields, undefined, signal);
    const parents = await this.passes.refsOf(parent, signal);
    yield* inOrderConcurrent(
      parents,
      (object) => this.encodedPages(type, volatileFields, String(object.id), signal),
      this.width,
    );
  }

  /**
   * The pages of `type` (under `parentId`) encoded for a snapshot, each on a worker thread while
   * the next one is fetched (kit PageEncoderPool, as Okta's users).
   */
  private async *encodedPages(
    type: EntraResourceType,
    volatileFields: readonly string[],
    parentId: string | undefined,
    signal?: AbortSignal,
  ): AsyncGenerator<EncodedRecords> {
    const definition = ENTRA_TYPE_DEFINITIONS[type];
    const read = {
      template: definition.path,
      params: parentId === undefined ? undefined : { id: parentId },
      select: definition.link ? ['id'] : definition.select,
      query: definition.query,
      paged: definition.top === true,
      signal,
    };
    const encode = (body: Uint8Array<ArrayBuffer>) =>
      (this.encoding as EntraEncoding).encode({
        type,
        parentId,
        template: definition.path,
        body,
        volatileFields,
      });
    for await (const encoded of encodedPages(this.graph.pageBodies(read), encode)) {
      if (type === 'user') this.seen.users += encoded.ids.length;
      yield encoded;
    }
  }

  /**
   * The objects of `type` as Graph returns them: each page of a collection, or the one object of a
   * singleton (none when it answers 404 and the type says that means absent).
   */
  private async *objects(
    type: EntraResourceType,
    params: Record<string, string>,
    signal?: AbortSignal,
  ): AsyncGenerator<GraphObject> {
    const definition = ENTRA_TYPE_DEFINITIONS[type];
    const read = {
      template: definition.path,
      params,
      select: definition.link ? ['id'] : definition.select,
      query: definition.query,
      signal,
    };
    if (definition.shape === 'singleton') {
      const object = await this.graph.object(read).catch((error: unknown) => {
        if (definition.absentOn404 && error instanceof ProviderRequestError && error.status === 404)
          return undefined;
        throw error;
      });
      if (object) yield object;
      return;
    }
    for await (const page of this.graph.pages({ ...read, paged: definition.top === true })) yield* page;
  }

  /** The records of `type` under one parent object (ENTRA_TYPE_DEFINITIONS `parent`). */
  private async *children(
    type: EntraResourceType,
    parent: GraphObject,
    signal?: AbortSignal,
  ): AsyncGenerator<ResourceRecord> {
    const definition = ENTRA_TYPE_DEFINITIONS[type];
    if (definition.embeddedIn) {
      const embedded = parent[definition.embeddedIn];
      for (const object of Array.isArray(embedded) ? (embedded as GraphObject[]) : [])
        yield entraRecord(type, object);
      return;
    }
    const parentId = String(parent.id);
    for await (const object of this.objects(type, { id: parentId }, signal))
      yield entraChildRecord(type, parentId, object);
  }
}
