import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ScheduleEntity } from './schedule.entity.js';
import type { ScheduleSettings } from './schedule-settings.js';
import { type Transaction, within } from '@app/platform/database/transaction.js';

/** A schedule whose slot has come: `nextRunAt` is set. */
export type DueSchedule = ScheduleEntity & { nextRunAt: Date };

/** Access to saved schedules; only this class touches the table. */
@Injectable()
export class SchedulesRepository {
  constructor(@InjectRepository(ScheduleEntity) private readonly rows: Repository<ScheduleEntity>) {}

  findForConnection(teamId: string, connectionId: string): Promise<ScheduleEntity | null> {
    return this.rows.findOneBy({ teamId, connectionId });
  }

  /** Inserts or replaces the schedule of a connection in one statement, so two first saves cannot collide. */
  async save(
    teamId: string,
    connectionId: string,
    settings: ScheduleSettings,
    nextRunAt: Date | null,
    tx?: Transaction,
  ): Promise<void> {
    await within(this.rows, tx).upsert({ connectionId, teamId, ...settings, nextRunAt }, ['connectionId']);
  }

  /**
   * Enabled schedules whose slot is at or before `now`, oldest slot first, of connections that
   * are not deleted, at most `limit`.
   */
  async findDue(now: Date, limit: number): Promise<DueSchedule[]> {
    const rows = await this.rows
      .createQueryBuilder('schedule')
      .innerJoin('schedule.connection', 'connection', 'connection.deleted_at IS NULL')
      .where('schedule.enabled AND schedule.next_run_at <= :now', { now })
      .orderBy('schedule.next_run_at', 'ASC')
      .limit(limit)
      .getMany();
    return rows as DueSchedule[]; // next_run_at <= now excludes nulls
  }

  /**
   * Claims the slot `expectedNextRun` of a schedule by moving it to `nextRun` (optimistic: the
   * row must still hold the slot). @returns true for the one caller whose UPDATE hit, false for
   * every other replica, and when the schedule was changed or disabled meanwhile.
   */
  async claimSlot(connectionId: string, expectedNextRun: Date, nextRun: Date, now: Date): Promise<boolean> {
    const result = await this.rows.update(
      { connectionId, enabled: true, nextRunAt: expectedNextRun },
      { nextRunAt: nextRun, lastRunAt: now },
    );
    return (result.affected ?? 0) > 0;
  }

  /** The team and connection of every schedule with the weekly verification on, of connections not deleted. */
  async findWeeklyVerifications(): Promise<
    Array<{ teamId: string; connectionId: string; verifySandboxConnectionId: string | null }>
  > {
    const rows = await this.rows
      .createQueryBuilder('schedule')
      .innerJoin('schedule.connection', 'connection', 'connection.deleted_at IS NULL')
      .where('schedule.verify_weekly')
      .getMany();
    return rows.map(({ teamId, connectionId, verifySandboxConnectionId }) => ({
      teamId,
      connectionId,
      verifySandboxConnectionId,
    }));
  }

  async recordBackup(connectionId: string, backupId: string): Promise<void> {
    await this.rows.update({ connectionId }, { lastBackupId: backupId });
  }
}
