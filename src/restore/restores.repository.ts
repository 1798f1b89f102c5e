import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, LessThanOrEqual, Repository } from 'typeorm';
import { type Transaction, within } from '@app/database/transaction.js';
import type { RestoreFacts } from './restore-audit.js';
import type { RestoreItem } from './restore-items.js';
import { RestoreItemEntity } from './restore-item.entity.js';
import { RestoreEntity, type RestoreStatus, type RestoreTypeSummary } from './restore.entity.js';

type NewRestore = Pick<
  RestoreEntity,
  | 'id'
  | 'teamId'
  | 'connectionId'
  | 'backupId'
  | 'requestedBy'
  | 'mode'
  | 'resourceTypes'
  | 'resourceIds'
  | 'prune'
  | 'activateUsers'
>;

/** Statuses of a restore that is not over: at most one per connection (`restores_one_active`). */
const ACTIVE: RestoreStatus[] = ['pending', 'running'];

/** Team-scoped access to restores and their items; only this class touches the two tables. */
@Injectable()
export class RestoresRepository {
  constructor(
    @InjectRepository(RestoreEntity) private readonly rows: Repository<RestoreEntity>,
    @InjectRepository(RestoreItemEntity) private readonly items: Repository<RestoreItemEntity>,
  ) {}

  /**
   * Inserts a `pending` restore. @returns false when the connection already has one pending or
   * running (the partial unique index decides, so two replicas cannot race).
   */
  async insertPending(restore: NewRestore, tx?: Transaction): Promise<boolean> {
    // ON CONFLICT DO NOTHING, not a caught error: that would abort the caller's transaction.
    const result = await within(this.rows, tx)
      .createQueryBuilder()
      .insert()
      .values({ ...restore, status: 'pending', progressPct: 0, progressMessage: 'Queued', summary: {} })
      .orIgnore()
      .returning(['id'])
      .execute();
    return (result.raw as unknown[]).length > 0;
  }

  async setJobId(id: string, jobId: string): Promise<void> {
    await this.rows.update({ id }, { jobId });
  }

  findVisible(teamId: string, id: string): Promise<RestoreEntity | null> {
    return this.rows.findOne({ where: { id, teamId }, relations: { connection: true } });
  }

  findById(id: string): Promise<RestoreEntity | null> {
    return this.rows.findOne({ where: { id }, relations: { connection: true } });
  }

  /** When the connection's last completed restore finished, at or before `atOrBefore`; null when none did. */
  async lastCompletedAt(teamId: string, connectionId: string, atOrBefore: Date): Promise<Date | null> {
    const row = await this.rows.findOne({
      where: { teamId, connectionId, status: 'completed', completedAt: LessThanOrEqual(atOrBefore) },
      order: { completedAt: 'DESC' },
    });
    return row?.completedAt ?? null;
  }

  /** A page of a team's restores, newest first. */
  async listPage(
    teamId: string,
    filter: { connectionId?: string; status?: RestoreStatus; limit: number; offset: number },
  ): Promise<{ rows: RestoreEntity[]; total: number }> {
    const [rows, total] = await this.rows.findAndCount({
      where: {
        teamId,
        ...(filter.connectionId ? { connectionId: filter.connectionId } : {}),
        ...(filter.status ? { status: filter.status } : {}),
      },
      relations: { connection: true },
      order: { createdAt: 'DESC', id: 'ASC' },
      skip: filter.offset,
      take: filter.limit,
    });
    return { rows, total };
  }

  /** A page of a restore's items in the order applied, optionally only the failed ones. */
  async itemsPage(
    restoreId: string,
    filter: { failedOnly: boolean; limit: number; offset: number },
  ): Promise<{ rows: RestoreItemEntity[]; total: number }> {
    const [rows, total] = await this.items.findAndCount({
      where: { restoreId, ...(filter.failedOnly ? { outcome: 'failed' as const } : {}) },
      order: { seq: 'ASC' },
      skip: filter.offset,
      take: filter.limit,
    });
    return { rows, total };
  }

  /** Takes a pending restore. @returns false when it is not pending (failed by the sweep, or taken). */
  async markRunning(id: string): Promise<boolean> {
    const result = await this.rows.update(
      { id, status: 'pending' },
      {
        status: 'running',
        startedAt: () => 'now()',
        heartbeatAt: () => 'now()',
        progressMessage: 'Starting',
      },
    );
    return (result.affected ?? 0) > 0;
  }

  async setPreRestoreBackup(id: string, backupId: string): Promise<void> {
    await this.rows.update({ id, status: 'running' }, { preRestoreBackupId: backupId });
  }

  /** Progress of a running restore; also its heartbeat. @returns false when it is no longer running */
  async updateProgress(
    id: string,
    progressPct: number,
    progressMessage: string,
    summary?: Record<string, RestoreTypeSummary>,
  ): Promise<boolean> {
    const result = await this.rows.update(
      { id, status: 'running' },
      { progressPct, progressMessage, heartbeatAt: () => 'now()', ...(summary ? { summary } : {}) },
    );
    return (result.affected ?? 0) > 0;
  }

  async heartbeat(id: string): Promise<void> {
    await this.rows.update({ id, status: In(ACTIVE) }, { heartbeatAt: () => 'now()' });
  }

  /**
   * Appends items after the last recorded one (`seq` continues), in their order.
   * One writer per restore: the job that runs it.
   */
  async appendItems(restoreId: string, items: RestoreItem[]): Promise<void> {
    if (items.length === 0) return;
    const last = await this.items.maximum('seq', { restoreId });
    const first = (last ?? 0) + 1;
    await this.items.insert(
      items.map((item, index) => ({
        restoreId,
        seq: first + index,
        resourceType: item.resourceType,
        resourceId: item.resourceId,
        name: item.name,
        action: item.action,
        outcome: item.outcome,
        error: item.error ?? null,
        newId: item.newId ?? null,
        notes: item.notes,
      })),
    );
  }

  /**
   * Ends a running restore: `completed`, `partial` (some items failed) or `failed`.
   * @returns false when it was no longer running (the sweep failed it first)
   */
  async finish(
    id: string,
    outcome: {
      status: 'completed' | 'partial' | 'failed';
      summary?: Record<string, RestoreTypeSummary>;
      errorMessage?: string;
    },
    tx?: Transaction,
  ): Promise<boolean> {
    const result = await within(this.rows, tx).update(
      { id, status: In(ACTIVE) },
      {
        status: outcome.status,
        progressPct: outcome.status === 'failed' ? undefined : 100,
        progressMessage: { completed: 'Completed', partial: 'Completed with failures', failed: 'Failed' }[
          outcome.status
        ],
        errorMessage: outcome.errorMessage ?? null,
        completedAt: () => 'now()',
        heartbeatAt: () => 'now()',
        ...(outcome.summary ? { summary: outcome.summary } : {}),
      },
    );
    return (result.affected ?? 0) > 0;
  }

  /**
   * Fails running restores not heard of since `before` (DESIGN section 4). Pending ones wait for a
   * worker, however long the queue: their job is durable. @returns their ids
   */
  async failStale(before: Date, errorMessage: string, tx?: Transaction): Promise<RestoreFacts[]> {
    const result = await within(this.rows, tx)
      .createQueryBuilder()
      .update()
      .set({ status: 'failed', errorMessage, progressMessage: 'Failed', completedAt: () => 'now()' })
      .where(`status = 'running' AND heartbeat_at < :before`, { before })
      .returning('id, team_id, connection_id, backup_id')
      .execute();
    return (result.raw as Array<Record<string, string>>).map((row) => ({
      id: row.id,
      teamId: row.team_id,
      connectionId: row.connection_id,
      backupId: row.backup_id,
    }));
  }
}
