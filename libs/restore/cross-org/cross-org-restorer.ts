import type * as Restore from '@libs/providers/provider-restore.js';
import type { ResourceRecord, ResourceType } from '@libs/records/resource-record.js';
import type { CompiledMapping } from './mapping.js';

/**
 * The target org's restorer, for a backup of another org (docs/restore.md "Into another org"):
 * every backup record is first carried over by the mapping (domains, hosts, group names), then its
 * ids are rewritten through the explicit pairs and the run's id map, so that it is matched,
 * compared and written as a record of the target org. Everything else (support, fingerprints,
 * natural keys, the lockout guard of the target's own integration and admins) is the target's
 * restorer's own.
 */
export class CrossOrgRestorer implements Restore.ProviderRestorer {
  readonly order: readonly ResourceType[];
  readonly guardedTypes: readonly ResourceType[];
  readonly writesInFlight?: number;
  /** source object id -> target object id, from the mapping's explicit pairs */
  readonly pairs: ReadonlyMap<string, string>;

  constructor(
    private readonly target: Restore.ProviderRestorer,
    private readonly mapping: CompiledMapping,
  ) {
    this.order = target.order;
    this.guardedTypes = target.guardedTypes;
    if (target.writesInFlight !== undefined) this.writesInFlight = target.writesInFlight;
    this.pairs = mapping.pairs;
  }

  prepare(types: readonly ResourceType[], signal?: AbortSignal): Promise<void> {
    return this.target.prepare(types, signal);
  }

  support(type: ResourceType): Restore.RestoreSupport {
    return this.target.support(type);
  }

  fingerprint(record: ResourceRecord): string {
    return this.target.fingerprint(record);
  }

  naturalKey(record: ResourceRecord): string | null {
    return this.target.naturalKey(record);
  }

  /** The backup record mapped, then its ids rewritten: the pairs first, then the run's map. */
  rewrite(record: ResourceRecord, ids: Restore.IdMap): ResourceRecord {
    const mapped = this.mapping.mapRecord(record);
    const paired = this.mapping.pairs.size ? this.target.rewrite(mapped, this.mapping.pairs) : mapped;
    return this.target.rewrite(paired, ids);
  }

  references(record: ResourceRecord): string[] {
    return this.target.references(record);
  }

  live(record: ResourceRecord): Restore.LiveResource {
    return this.target.live(record);
  }

  guardDeletions(
    type: ResourceType,
    deleting: readonly Restore.LiveResource[],
    remaining: readonly Restore.LiveResource[],
    going: ReadonlySet<string>,
  ): Map<string, string> {
    return this.target.guardDeletions(type, deleting, remaining, going);
  }

  createdWith(type: ResourceType): { type: ResourceType; component: number } | null {
    return this.target.createdWith(type);
  }

  sequence(type: ResourceType): ((a: ResourceRecord, b: ResourceRecord) => number) | null {
    return this.target.sequence(type);
  }

  managedBecause(record: ResourceRecord): string | null {
    return this.target.managedBecause(record);
  }

  caution(record: ResourceRecord): string | null {
    return this.target.caution?.(record) ?? null;
  }

  /** The target's wait for its writes to settle (Graph's replication of what was created). */
  settle(type: ResourceType): Promise<string[]> {
    return this.target.settle?.(type) ?? Promise.resolve([]);
  }

  refusedBecause(record: ResourceRecord): string | null {
    return this.target.refusedBecause?.(record) ?? null;
  }

  /** Never: the target's recycle bin holds the target's objects, not the source's. */
  fromDeleted(): boolean {
    return false;
  }

  apply(write: Restore.RestoreWrite, signal?: AbortSignal): Promise<Restore.RestoreWriteResult> {
    return this.target.apply(write, signal);
  }
}
