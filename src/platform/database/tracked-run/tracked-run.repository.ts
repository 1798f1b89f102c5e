import {
  type FindOptionsRelations,
  type FindOptionsWhere,
  In,
  type QueryDeepPartialEntity,
  type Repository,
  type SelectQueryBuilder,
} from 'typeorm';
import { type Transaction, within } from '@app/platform/database/transaction.js';
import type { TrackedRunEntity } from './tracked-run.entity.js';

/** The statuses a run ends in. */
export type FinalStatus = 'completed' | 'partial' | 'failed';

/** Columns of a run's own kind (beyond TrackedRunEntity's), as a progress report or the end writes them. */
export type RunFields<T extends TrackedRunEntity> = QueryDeepPartialEntity<Omit<T, keyof TrackedRunEntity>>;

/** How a run ends: its final status, the safe error message of a failure, and its kind's own results. */
export interface RunOutcome<T extends TrackedRunEntity> {
  status: FinalStatus;
  errorMessage?: string;
  /** the final progress message, when it says more than the status (a backup that found nothing changed) */
  message?: string;
  fields?: RunFields<T>;
}

/** What the progress message says once a run is over. */
const FINAL_MESSAGES: Record<FinalStatus, string> = {
  completed: 'Completed',
  partial: 'Completed with failures',
  failed: 'Failed',
};

/**
 * The lifecycle writes of a tracked run's table, each conditional on the status it leaves, so
 * that a worker, a retry, the stale sweep and another replica never race (DESIGN section 4).
 * A kind's repository extends it with its own reads and writes; `queuedAs` is the status a run
 * is inserted with: `pending` when a taken run is never taken again (restores), `running` when a
 * retried job starts the run over (backups).
 */
export abstract class TrackedRunRepository<T extends TrackedRunEntity> {
  protected constructor(
    protected readonly rows: Repository<T>,
    private readonly options: { queuedAs: 'pending' | 'running'; relations?: FindOptionsRelations<T> },
  ) {}

  /**
   * Inserts a queued run (`Queued`, 0 %). @returns false when the kind's partial unique index
   * refuses it (one active run per connection), so two replicas cannot race; ON CONFLICT DO
   * NOTHING rather than a caught error, which would abort the caller's transaction.
   */
  protected async insertQueued(run: QueryDeepPartialEntity<T>, tx?: Transaction): Promise<boolean> {
    const queued = { ...run, status: this.options.queuedAs, progressPct: 0, progressMessage: 'Queued' };
    const result = await within(this.rows, tx)
      .createQueryBuilder()
      .insert()
      .values(queued as QueryDeepPartialEntity<T>)
      .orIgnore()
      .returning(['id'])
      .execute();
    return (result.raw as unknown[]).length > 0;
  }

  async setJobId(id: string, jobId: string): Promise<void> {
    const set: Record<string, unknown> = { jobId };
    await this.rows.update({ id } as FindOptionsWhere<T>, set as QueryDeepPartialEntity<T>);
  }

  /** A run of the team, with the kind's relations; null for a missing one or another team's. */
  findVisible(teamId: string, id: string): Promise<T | null> {
    return this.joined().where('run.id = :id AND run.teamId = :teamId', { id, teamId }).getOne();
  }

  findById(id: string): Promise<T | null> {
    return this.joined().where('run.id = :id', { id }).getOne();
  }

  /**
   * A query of runs (alias `run`) with the kind's relations joined. One query a lookup: `findOne`
   * with relations sends two (its `take: 1` over a join makes TypeORM find the ids first with a
   * DISTINCT query), and every relation of a run is many-to-one, one row a run.
   */
  private joined(): SelectQueryBuilder<T> {
    const query = this.rows.createQueryBuilder('run');
    for (const relation of Object.keys(this.options.relations ?? {}))
      query.leftJoinAndSelect(`run.${relation}`, relation);
    return query;
  }

  /**
   * Takes a queued run for the job that works it: `running`, 0 %, `Starting`, heartbeat now.
   * @returns false when it is no longer queued (taken, failed by the stale sweep, deleted)
   */
  claim(id: string): Promise<boolean> {
    return this.updateIf(id, [this.options.queuedAs], {
      status: 'running',
      progressPct: 0,
      progressMessage: 'Starting',
      errorMessage: null,
      startedAt: () => 'coalesce(started_at, now())',
      heartbeatAt: () => 'now()',
    });
  }

  async heartbeat(id: string): Promise<void> {
    await this.updateIf(id, ['running'], { heartbeatAt: () => 'now()' });
  }

  /**
   * Progress of a running run, with any of its kind's columns; also its heartbeat.
   * @param progressPct 0 to 100
   * @returns false when it is no longer running (failed by the stale sweep, deleted)
   */
  updateProgress(
    id: string,
    progressPct: number,
    progressMessage: string,
    fields?: RunFields<T>,
  ): Promise<boolean> {
    return this.updateIf(id, ['running'], {
      ...fields,
      progressPct,
      progressMessage,
      heartbeatAt: () => 'now()',
    });
  }

  /**
   * Ends a queued or running run (100 % unless it failed). @returns false when it was already
   * over (the stale sweep failed it first), so nothing was written
   */
  finish(id: string, outcome: RunOutcome<T>, tx?: Transaction): Promise<boolean> {
    const queued = [...new Set([this.options.queuedAs, 'running'])];
    return this.updateIf(
      id,
      queued,
      {
        ...outcome.fields,
        status: outcome.status,
        ...(outcome.status === 'failed' ? {} : { progressPct: 100 }),
        progressMessage: outcome.message ?? FINAL_MESSAGES[outcome.status],
        errorMessage: outcome.errorMessage ?? null,
        completedAt: () => 'now()',
        heartbeatAt: () => 'now()',
      },
      tx,
    );
  }

  /**
   * Fails running runs whose worker has not been heard of since `before` (DESIGN section 4).
   * Queued ones wait for a worker, however long the queue: their job is durable.
   * @returns the runs it failed, as they are now
   */
  async failStale(before: Date, errorMessage: string, tx?: Transaction): Promise<T[]> {
    const failed = { status: 'failed', errorMessage, progressMessage: 'Failed', completedAt: () => 'now()' };
    const result = await within(this.rows, tx)
      .createQueryBuilder()
      .update()
      .set(failed as QueryDeepPartialEntity<T>)
      .where(`status = 'running' AND heartbeat_at < :before`, { before })
      .returning(['id'])
      .execute();
    const ids = (result.raw as Array<{ id: string }>).map((row) => row.id);
    if (ids.length === 0) return [];
    return within(this.rows, tx).find({ where: { id: In(ids) } as FindOptionsWhere<T> });
  }

  /** Writes `set` to run `id` if its status is one of `statuses`. @returns whether it did */
  protected async updateIf(
    id: string,
    statuses: string[],
    set: Record<string, unknown>,
    tx?: Transaction,
  ): Promise<boolean> {
    const result = await within(this.rows, tx).update(
      { id, status: In(statuses) } as FindOptionsWhere<T>,
      set as QueryDeepPartialEntity<T>,
    );
    return (result.affected ?? 0) > 0;
  }
}
