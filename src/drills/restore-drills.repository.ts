import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { Transaction } from '@app/database/transaction.js';
import { TrackedRunRepository } from '@app/database/tracked-run/tracked-run.repository.js';
import { RestoreDrillEntity } from './restore-drill.entity.js';

type NewDrill = Pick<
  RestoreDrillEntity,
  'id' | 'teamId' | 'connectionId' | 'backupId' | 'backupSha256' | 'requestedBy' | 'triggeredBy'
>;

/** Where a page of drills starts: after this one (the order is created_at, id). */
export interface DrillCursor {
  createdAt: Date;
  id: string;
}

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
   * One page of a team's drills created in [from, to], oldest first, optionally of some
   * connections only, after `cursor`.
   * @param limit rows at most
   */
  listPeriodPage(
    teamId: string,
    filter: { from: Date; to: Date; connectionIds: string[] },
    cursor: DrillCursor | null,
    limit: number,
  ): Promise<RestoreDrillEntity[]> {
    const query = this.rows
      .createQueryBuilder('d')
      .leftJoinAndSelect('d.connection', 'connection')
      .where('d.team_id = :teamId AND d.created_at BETWEEN :from AND :to', { teamId, ...filter })
      .andWhere('d.connection_id IN (:...connectionIds)', { connectionIds: filter.connectionIds })
      .orderBy('d.created_at', 'ASC')
      .addOrderBy('d.id', 'ASC')
      .take(limit);
    if (cursor)
      query.andWhere('(d.created_at, d.id) > (:createdAt, :id)', {
        createdAt: cursor.createdAt,
        id: cursor.id,
      });
    return query.getMany();
  }
}
