import { DiscoveryService } from '@nestjs/core';
import type { AuditEntry } from '@app/audit/audit-entry.js';
import type { TrackedRunEntity } from '@app/platform/database/tracked-run/tracked-run.entity.js';
import type {
  RunFields,
  RunOutcome,
  TrackedRunRepository,
} from '@app/platform/database/tracked-run/tracked-run.repository.js';

/** What a run's work gets from TrackedRunRunner while it runs. */
export interface RunContext<T extends TrackedRunEntity> {
  /** Aborted once the run is over (ended, failed or abandoned): hand it to every request made. */
  readonly signal: AbortSignal;
  /**
   * Writes the run's progress (0 to 100) and message, with any of its kind's columns; also a heartbeat.
   * @throws RunAbandonedError when the run is no longer running (the stale sweep failed it while
   *   this worker stalled: a pause, a long GC, a frozen VM), so the work must stop
   */
  progress(pct: number, message: string, fields?: RunFields<T>): Promise<void>;
  /**
   * Ends the run with `outcome` and records `entry` in the same transaction (docs/notifications.md).
   * @throws RunAbandonedError when the stale sweep failed it first
   */
  finish(outcome: RunOutcome<T>, entry: AuditEntry): Promise<void>;
}

/**
 * One kind of tracked run (a backup, a restore): its table, its work, and what its failures say.
 * TrackedRunRunner runs the lifecycle around `execute` (claim, heartbeat, abort, abandonment,
 * retry or final failure); StaleRunSweeper fails its runs whose worker died. Mark the provider
 * with `@TrackedRun()` so the sweep finds it.
 */
export interface TrackedRunKind<T extends TrackedRunEntity> {
  /** The run's noun in log lines: `backup`. */
  readonly noun: string;
  readonly runs: TrackedRunRepository<T>;
  /** Does the run's work and ends it with `context.finish`; throws to fail (or retry) it. */
  execute(run: T, context: RunContext<T>): Promise<void>;
  /**
   * A message safe to store and show for a failure this kind knows (what the provider answered,
   * what the service refused); undefined for an unexpected error, which is logged with its stack
   * and stored as `internalErrorMessage`.
   */
  describe(error: unknown): string | undefined;
  readonly internalErrorMessage: string;
  /** Whether pg-boss may try the job again while its queue's attempts remain; omitted: never. */
  retryable?(error: unknown): boolean;
  /** The audit entry of the run's final failure. */
  failedEntry(run: T, errorMessage: string, error: unknown): AuditEntry;
  /** What the stale sweep stores as the error of a run whose worker stopped responding. */
  readonly staleMessage: string;
  /** The audit entry of a run the stale sweep failed. */
  staleEntry(run: T, errorMessage: string): AuditEntry;
  /**
   * Deletes what a run that will not complete left behind (a backup's objects): after a failed
   * attempt, once abandoned, and once the stale sweep failed it (after its UPDATE, never before).
   */
  discard?(run: T): Promise<void>;
}

/** Marks a provider that is a TrackedRunKind, so that StaleRunSweeper covers its runs. */
export const TrackedRun = DiscoveryService.createDecorator<void>();
