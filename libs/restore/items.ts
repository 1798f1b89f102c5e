import { ProviderAuthError, ProviderError } from '@libs/providers/provider-errors.js';
import type { RestoreTypeSummary } from './restore-types.js';
import type { RestoreAction } from './restore-types.js';

/** The outcome of one write, as recorded (DESIGN section 4 "item result"). */
export interface RestoreItem {
  resourceType: string;
  /** record id in the backup (a deletion: in the live org) */
  resourceId: string;
  name: string | null;
  action: RestoreAction;
  outcome: 'ok' | 'failed';
  error?: string;
  /** the object's id after the write when it differs (a re-created object's new id) */
  newId?: string;
  notes: string[];
}

/** Where an executing restore reports to (the job: the database). */
export interface RestoreSink {
  /** Items in the order their writes finished. */
  record(items: RestoreItem[]): Promise<void>;
  /** @throws when the restore must stop (no longer running: failed by the stale sweep) */
  progress(pct: number, message: string, summary: Record<string, RestoreTypeSummary>): Promise<void>;
  /** One of our own faults while writing an item (not the provider's answer): for the log only. */
  internalError(error: unknown): void;
}

/** Items are recorded in batches of this many, or at least this often (ms). */
const ITEM_BATCH = 200;
const ITEM_FLUSH_MS = 1000;
/**
 * Batches handed to the sink and not yet recorded, at most: past it `add` waits. Writes to an org
 * without rate limits outrun the database, and the items of a million writes must not pile up in
 * memory waiting for it.
 */
const MAX_QUEUED_BATCHES = 4;

/**
 * The item of a write the provider's API cannot make (a signing key's private half, a feature an
 * app cannot be given through the API), or one into an org that cannot hold the type (it lacks the
 * feature or licence: `unavailable`): recorded as a skip with the reason and the type's runbook
 * notes, not as a failure, since no run can make it; the preview lists such types too.
 */
export function cannotWrite(
  base: Pick<RestoreItem, 'resourceType' | 'resourceId' | 'name'>,
  action: Exclude<RestoreAction, 'skip'>,
  notes: readonly string[],
  /** RestoreSupport.unavailable: why the org cannot hold the type at all */
  unavailable?: string,
): RestoreItem {
  const verb = { create: 'create', update: 'change', delete: 'delete' }[action];
  const why = unavailable
    ? `Not restored: the org cannot hold ${base.resourceType} objects: ${unavailable}`
    : `Not restored: the provider's API cannot ${verb} ${base.resourceType} objects`;
  return {
    ...base,
    action: 'skip',
    outcome: 'ok',
    notes: [why, ...notes.filter((note) => note !== unavailable)],
  };
}

/**
 * Items waiting to be recorded: written in batches (ITEM_BATCH items or ITEM_FLUSH_MS), one batch
 * at a time and in order, so that concurrent writes can add items freely; a writer waits only
 * when MAX_QUEUED_BATCHES are waiting for the sink. A failed batch surfaces at the next `add` that
 * waits or at `flush`.
 */
export class ItemLog {
  private pending: RestoreItem[] = [];
  private writing: Promise<void> = Promise.resolve();
  private sentAt = Date.now();
  private queued = 0;

  constructor(private readonly sink: RestoreSink) {}

  /**
   * What an item's failure says: the provider's answer, or a generic message for our own faults
   * (handed to the sink's log once, never shown: no stack, no secret).
   * @throws ProviderAuthError and the signal's reason: those stop the whole restore
   */
  failureMessage(error: unknown, signal?: AbortSignal): string {
    if (error instanceof ProviderAuthError || signal?.aborted) throw error;
    if (error instanceof ProviderError) return error.message;
    this.sink.internalError(error);
    return 'Internal error while writing this resource (see the worker log)';
  }

  /**
   * Adds an item; a crash loses at most the last second's items, never those of earlier writes.
   * Resolves at once, or once the batches before it are recorded when too many wait (above).
   * @throws what recording a batch threw, when it waits
   */
  async add(item: RestoreItem): Promise<void> {
    this.pending.push(item);
    if (this.pending.length >= ITEM_BATCH || Date.now() - this.sentAt >= ITEM_FLUSH_MS) this.send();
    if (this.queued >= MAX_QUEUED_BATCHES) await this.writing;
  }

  /** Records every item added so far. @throws what recording a batch threw */
  async flush(): Promise<void> {
    this.send();
    await this.writing;
  }

  private send(): void {
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.sentAt = Date.now();
    this.queued += 1;
    this.writing = this.writing.then(() => this.sink.record(batch));
    // Handled at the next flush; without this branch the rejection would count as unhandled.
    this.writing.then(
      () => (this.queued -= 1),
      () => (this.queued -= 1),
    );
  }
}
