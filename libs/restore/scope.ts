import type { ProviderRestorer } from '@libs/providers/provider-restore.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';

/** What a restore was asked to cover (POST /api/restore `mode`, `resourceTypes`, `resourceIds`). */
export interface RestoreSelection {
  /** types whose records are in scope: every type of the backup for a full restore */
  types: ReadonlySet<string>;
  /** a selective restore narrowed to these record ids of `types` */
  ids?: ReadonlySet<string>;
  /**
   * An undo (undo.ts): a prune limited to these live record ids of `types`, whether or not `ids`
   * narrows the rest; absent, a prune covers every live record of `types` the backup lacks.
   */
  pruneIds?: ReadonlySet<string>;
}

/**
 * Which backup records a restore writes (docs/restore.md "What a restore covers"):
 * - the records of the selected types (of the selected ids, when given);
 * - the records that hang off a selected or re-created object (`<groupId>:<userId>`: a group's
 *   memberships, owners and app assignments; a user's too), whatever their type, so a deleted
 *   group or user comes back whole;
 * - the records whose data names a selected or re-created object (the group rules assigning to a
 *   group, the policies naming it, an identity provider's profile mapping), so they point at the
 *   object again once it is back (a re-created object has a new id).
 */
export class RestoreScope {
  private readonly followed: Set<string>;

  constructor(
    private readonly selection: RestoreSelection,
    private readonly restorer: ProviderRestorer,
  ) {
    this.followed = new Set(selection.ids ?? []);
  }

  /** Follows a re-created object: records hanging off it come into scope (backup object id). */
  follow(objectId: string): void {
    this.followed.add(objectId);
  }

  includes(record: ResourceRecord): boolean {
    const ids = this.selection.ids;
    if (this.selection.types.has(record.type) && (ids === undefined || ids.has(record.id))) return true;
    if (this.followed.size === 0) return false;
    const parts = record.id.split(':');
    if (parts.length > 1 && parts.some((part) => this.followed.has(part))) return true;
    return this.restorer.references(record).some((id) => this.followed.has(id));
  }

  /** Whether live objects of the type that the backup lacks are candidates for a prune. */
  prunable(type: string): boolean {
    const pruneIds = this.selection.pruneIds;
    if (pruneIds !== undefined) return this.selection.types.has(type) && pruneIds.size > 0;
    return this.selection.ids === undefined && this.selection.types.has(type);
  }

  /** Whether a live record the backup lacks, of a prunable type, may be pruned (`pruneIds`). */
  prunes(liveId: string): boolean {
    return this.selection.pruneIds?.has(liveId) ?? true;
  }

  /** Whether a type can hold records in scope without being selected (dependents). */
  reachesBeyondTypes(): boolean {
    return this.followed.size > 0;
  }
}
