import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { And, IsNull, LessThanOrEqual, MoreThan, Not, Repository } from 'typeorm';
import type { UnreadLog } from '@libs/diff/change-attribution.js';
import { ChangeAttributionReadEntity } from './change-attribution-read.entity.js';

/** Team-scoped access to `change_attribution_reads`; only this class touches the table. */
@Injectable()
export class ChangeAttributionReadsRepository {
  constructor(
    @InjectRepository(ChangeAttributionReadEntity)
    private readonly rows: Repository<ChangeAttributionReadEntity>,
  ) {}

  /** Records whether the backup read the log (`unavailable` null) or why it could not. */
  async record(
    backup: { id: string; teamId: string; connectionId: string; startedAt: Date },
    unavailable: string | null,
  ): Promise<void> {
    await this.rows
      .createQueryBuilder()
      .insert()
      .values({
        backupId: backup.id,
        teamId: backup.teamId,
        connectionId: backup.connectionId,
        backupStartedAt: backup.startedAt,
        unavailable,
      })
      .orIgnore()
      .execute();
  }

  /** The backups of the connection started in `(after, atOrBefore]` that could not read the log, oldest first. */
  async unreadBetween(
    teamId: string,
    connectionId: string,
    after: Date,
    atOrBefore: Date,
  ): Promise<UnreadLog[]> {
    const rows = await this.rows.find({
      where: {
        teamId,
        connectionId,
        backupStartedAt: And(MoreThan(after), LessThanOrEqual(atOrBefore)),
        unavailable: Not(IsNull()),
      },
      order: { backupStartedAt: 'ASC' },
    });
    return rows.map((row) => ({
      backupStartedAt: row.backupStartedAt.toISOString(),
      reason: row.unavailable!,
    }));
  }
}
