import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThanOrEqual, MoreThan, Repository } from 'typeorm';
import type { PeriodFilter } from '@app/common/keyset-rows.js';
import { periodPage } from '@app/platform/database/period-page.js';
import type { Transaction } from '@app/platform/database/transaction.js';
import { TrackedRunRepository } from '@app/platform/database/tracked-run/tracked-run.repository.js';
import type { RestoreItem } from '@libs/restore/items.js';
import { RestoreItemEntity } from './restore-item.entity.js';
import { RestoreEntity, type RestoreStatus } from './restore.entity.js';

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
  | 'options'
> &
  Partial<Pick<RestoreEntity, 'undo' | 'sourceConnectionId' | 'mapping'>>;

/**
 * Team-scoped access to restores and their items; only this class touches the two tables.
 * Restores are queued `pending` and taken once (TrackedRunRepository.claim).
 */
@Injectable()
export class RestoresRepository extends TrackedRunRepository<RestoreEntity> {
  constructor(
    @InjectRepository(RestoreEntity) rows: Repository<RestoreEntity>,
    @InjectRepository(RestoreItemEntity) private readonly items: Repository<RestoreItemEntity>,
  ) {
    super(rows, { queuedAs: 'pending', relations: { connection: true } });
  }

  /**
   * Inserts a queued restore. @returns false when the connection already has one pending or
   * running (`restores_one_active`)
   */
  insertPending(restore: NewRestore, tx?: Transaction): Promise<boolean> {
    return this.insertQueued({ ...restore, summary: {} }, tx);
  }

  /** When the connection's last completed restore finished, at or before `atOrBefore`; null when none did. */
  async lastCompletedAt(teamId: string, connectionId: string, atOrBefore: Date): Promise<Date | null> {
    const row = await this.rows.findOne({
      where: { teamId, connectionId, status: 'completed', completedAt: LessThanOrEqual(atOrBefore) },
      order: { completedAt: 'DESC' },
    });
    return row?.completedAt ?? null;
  }

  /**
   * The objects restores of the connection re-created under new ids (items `ok` with a `new_id`),
   * of restores into the connection's own org (not from another org) started in `[since, until]`,
   * in the order they were written.
   */
  recreatedBetween(
    teamId: string,
    connectionId: string,
    since: Date,
    until: Date,
  ): Promise<Array<Pick<RestoreItemEntity, 'resourceId' | 'newId'>>> {
    return this.items
      .createQueryBuilder('item')
      .innerJoin(RestoreEntity, 'r', 'r.id = item.restore_id')
      .select(['item.restoreId', 'item.seq', 'item.resourceId', 'item.newId'])
      .where('r.team_id = :teamId AND r.connection_id = :connectionId', { teamId, connectionId })
      .andWhere('r.source_connection_id IS NULL')
      .andWhere('r.started_at BETWEEN :since AND :until', { since, until })
      .andWhere("item.outcome = 'ok' AND item.new_id IS NOT NULL")
      .orderBy('r.started_at', 'ASC')
      .addOrderBy('item.seq', 'ASC')
      .getMany();
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

  /**
   * One page of the team's restores of the period's connections created in it, oldest first
   * (created_at, id), after `after` (the audit pack, docs/export.md).
   * @param limit rows at most
   */
  listPeriodPage(
    teamId: string,
    filter: PeriodFilter,
    after: Pick<RestoreEntity, 'createdAt' | 'id'> | undefined,
    limit: number,
  ): Promise<RestoreEntity[]> {
    const query = this.rows.createQueryBuilder('r').innerJoinAndSelect('r.connection', 'connection');
    const cursor = after && { at: after.createdAt, id: after.id };
    return periodPage(query, 'r', 'created_at', teamId, filter, cursor, limit).getMany();
  }

  /** Up to `limit` of a restore's items after `afterSeq` (0: from the first), in the order applied. */
  itemsAfter(restoreId: string, afterSeq: number, limit: number): Promise<RestoreItemEntity[]> {
    return this.items.find({
      where: { restoreId, seq: MoreThan(afterSeq) },
      order: { seq: 'ASC' },
      take: limit,
    });
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

  async setPreRestoreBackup(id: string, backupId: string): Promise<void> {
    await this.updateIf(id, ['running'], { preRestoreBackupId: backupId });
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
}
