import { SnapshotIntegrityError } from '@libs/snapshot/snapshot-errors.js';
import type { AuditEntry } from '@app/audit/audit-entry.js';
import { ApiError } from '@app/common/errors.js';
import type { TrackedRunEntity } from '@app/platform/database/tracked-run/tracked-run.entity.js';
import type { TrackedRunRepository } from '@app/platform/database/tracked-run/tracked-run.repository.js';
import type { RunContext, TrackedRunKind } from './tracked-run-kind.js';
import type { JobAttempt, TrackedRunRunner } from './tracked-run.runner.js';

/**
 * The head every tracked-run job shares (a backup, a restore, its preview, a drill, a compliance
 * check): its runs' table, the runner its `@OnJob` handler hands each job to (`start`), and the
 * stale sweep's audit entry, the run's failure entry unless the kind says otherwise. A job
 * extends it with its work (`execute`), its messages and its failure entry, and is marked
 * `@TrackedRun()` and `@Injectable()` itself; its `@OnJob` handler names its queue and the run id
 * of its payload: `handle(job) { return this.start(job.data.backupId, job); }`.
 */
export abstract class TrackedRunJob<
  T extends TrackedRunEntity,
  R extends TrackedRunRepository<T> = TrackedRunRepository<T>,
> implements TrackedRunKind<T> {
  abstract readonly noun: string;
  abstract readonly internalErrorMessage: string;
  abstract readonly staleMessage: string;

  constructor(
    private readonly runner: TrackedRunRunner,
    readonly runs: R,
  ) {}

  abstract execute(run: T, context: RunContext<T>): Promise<void>;

  abstract describe(error: unknown): string | undefined;

  abstract failedEntry(run: T, errorMessage: string, error: unknown): AuditEntry;

  /** The audit entry of a run the stale sweep failed: its failure entry, with no error object. */
  staleEntry(run: T, errorMessage: string): AuditEntry {
    return this.failedEntry(run, errorMessage, undefined);
  }

  /** Runs the run `id` of a job of this kind (TrackedRunRunner.run). */
  protected start(id: string, attempt: JobAttempt): Promise<void> {
    return this.runner.run(this, id, attempt);
  }
}

/**
 * What a run that reads a backup says of a failure it knows (TrackedRunKind.describe): what the
 * service refused (ApiError), or why the backup cannot be read (SnapshotIntegrityError);
 * undefined for any other error.
 */
export function describeBackupReadFailure(error: unknown): string | undefined {
  if (error instanceof ApiError) return error.message;
  if (error instanceof SnapshotIntegrityError) return `The backup cannot be read: ${error.message}`;
  return undefined;
}
