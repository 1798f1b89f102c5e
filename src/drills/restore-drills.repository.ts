import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, MoreThanOrEqual, Repository } from 'typeorm';
import type { PeriodFilter } from '@app/common/keyset-rows.js';
import { periodPage } from '@app/platform/database/period-page.js';
import type { Transaction } from '@app/platform/database/transaction.js';
import { within } from '@app/platform/database/transaction.js';
import { TrackedRunRepository } from '@app/platform/database/tracked-run/tracked-run.repository.js';
import { RestoreDrillEntity } from './restore-drill.entity.js';

type NewDrill = Pick<
  RestoreDrillEntity,
  'id' | 'teamId' | 'connectionId' | 'backupId' | 'backupSha256' | 'requestedBy' | 'triggeredBy'
> &
  Partial<Pick<RestoreDrillEntity, 'targetConnectionId' | 'mapping'>>;

/**
 * Team-scoped access to restore drills; only this class touches `restore_drills`. Drills are
 * queued `pending` and taken once (TrackedRunRepository.claim).
 */
@Injectable()
export class RestoreDrillsRepository extends TrackedRunRepository<RestoreDrillEntity> {
  constructor(@InjectRepository(RestoreDrillEntity) rows: Repository<RestoreDrillEntity>) {
    super(rows, { queuedAs: 'pending', relations: { connection: true } });
  }

  /** Inserts a queued drill (`pending`, 0 %). */
  async insertPending(drill: NewDrill, tx?: Transaction): Promise<void> {
    await this.insertQueued({ ...drill }, tx);
  }

  /**
   * The id of the drill of `backupId` still pending or running, or null. Takes a lock on the
   * backup for the rest of `tx` first, so two requests racing to start a drill of it see each
   * other's insert (one drill is started, the other answers it).
   */
  async lockActiveOf(backupId: string, tx: Transaction): Promise<string | null> {
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`restore-drill:${backupId}`]);
    const active = await within(this.rows, tx).findOne({
      select: { id: true },
      where: { backupId, status: In(['pending', 'running']) },
    });
    return active?.id ?? null;
  }

  /** Whether the schedule already started a drill of the connection at or after `since`. */
  async scheduledSince(connectionId: string, since: Date): Promise<boolean> {
    return this.rows.exists({
      where: { connectionId, triggeredBy: 'schedule', createdAt: MoreThanOrEqual(since) },
    });
  }

  /**
   * One page of a team's drills of the period's connections created in it, oldest first (created_at,
   * id), after `after`.
   * @param limit rows at most
   */
  listPeriodPage(
    teamId: string,
    filter: PeriodFilter,
    after: Pick<RestoreDrillEntity, 'createdAt' | 'id'> | undefined,
    limit: number,
  ): Promise<RestoreDrillEntity[]> {
    const query = this.rows.createQueryBuilder('d').leftJoinAndSelect('d.connection', 'connection');
    const cursor = after && { at: after.createdAt, id: after.id };
    return periodPage(query, 'd', 'created_at', teamId, filter, cursor, limit).getMany();
  }
}
