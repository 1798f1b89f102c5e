import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Between, LessThan, Not, Repository, type SelectQueryBuilder } from 'typeorm';
import type { PeriodFilter } from '@app/common/keyset-rows.js';
import { periodPage } from '@app/platform/database/period-page.js';
import { type Transaction, within } from '@app/platform/database/transaction.js';
import { TrackedRunRepository } from '@app/platform/database/tracked-run/tracked-run.repository.js';
import { BackupEntity } from './backup.entity.js';
import type { ListBackupsQuery } from './dto/list-backups.query.js';

export interface BackupStatsRow {
  total: number;
  completed: number;
  failed: number;
  totalSize: number;
  resourceTypes: string[];
}

type NewBackup = Pick<
  BackupEntity,
  | 'id'
  | 'teamId'
  | 'connectionId'
  | 'ownerUserId'
  | 'kind'
  | 'baseBackupId'
  | 'triggeredBy'
  | 'include'
  | 'includeWorkflows'
  | 'storageKey'
>;

/**
 * Team-scoped access to backups; only this class touches the table. Backups are queued
 * `running`: a retried job starts its backup over (TrackedRunRepository.claim).
 */
@Injectable()
export class BackupsRepository extends TrackedRunRepository<BackupEntity> {
  constructor(@InjectRepository(BackupEntity) rows: Repository<BackupEntity>) {
    super(rows, { queuedAs: 'running', relations: { connection: true } });
  }

  /** Inserts a queued backup. @returns false when the connection already has one running (`backups_one_running`) */
  insertRunning(backup: NewBackup, tx?: Transaction): Promise<boolean> {
    return this.insertQueued(backup, tx);
  }

  /**
   * The last `limit` completed backups of a connection, newest first (timeline, DESIGN section 5).
   * @param limit 1 to 100
   */
  listCompleted(teamId: string, connectionId: string, limit: number): Promise<BackupEntity[]> {
    return this.rows.find({
      where: { teamId, connectionId, status: 'completed' },
      relations: { connection: true },
      order: { startedAt: 'DESC', id: 'DESC' },
      take: limit,
    });
  }

  /**
   * Whether a backup other than `exceptId` records its snapshot at `storageKey` (a backup that found
   * nothing changed points at its base's), so deleting `exceptId` must leave the objects.
   */
  async sharesStorage(storageKey: string, exceptId: string): Promise<boolean> {
    return this.rows.exists({ where: { storageKey, id: Not(exceptId) } });
  }

  /** The connection's last completed backup started before `before`, or null. */
  findPreviousCompleted(teamId: string, connectionId: string, before: Date): Promise<BackupEntity | null> {
    return this.rows.findOne({
      where: { teamId, connectionId, status: 'completed', startedAt: LessThan(before) },
      order: { startedAt: 'DESC', id: 'DESC' },
    });
  }

  /**
   * One page of the team's backups of the period's connections started in it, oldest first
   * (started_at, id), after `after` (the audit pack, docs/export.md).
   * @param limit rows at most
   */
  listPeriodPage(
    teamId: string,
    filter: PeriodFilter,
    after: Pick<BackupEntity, 'startedAt' | 'id'> | undefined,
    limit: number,
  ): Promise<BackupEntity[]> {
    const query = this.rows
      .createQueryBuilder('backup')
      .innerJoinAndSelect('backup.connection', 'connection');
    const cursor = after && { at: after.startedAt, id: after.id };
    return periodPage(query, 'backup', 'started_at', teamId, filter, cursor, limit).getMany();
  }

  /** The connection's last completed backup started in [from, to], or null. */
  latestCompletedIn(
    teamId: string,
    connectionId: string,
    from: Date,
    to: Date,
  ): Promise<BackupEntity | null> {
    return this.rows.findOne({
      where: { teamId, connectionId, status: 'completed', startedAt: Between(from, to) },
      order: { startedAt: 'DESC', id: 'DESC' },
    });
  }

  listActive(teamId: string): Promise<BackupEntity[]> {
    return this.rows.find({
      where: { teamId, status: 'running' },
      relations: { connection: true },
      order: { startedAt: 'DESC' },
    });
  }

  async listPage(teamId: string, query: ListBackupsQuery): Promise<{ rows: BackupEntity[]; total: number }> {
    const [rows, counted] = await Promise.all([
      this.filtered(teamId, query)
        .orderBy('backup.started_at', 'DESC')
        .addOrderBy('backup.id', 'ASC')
        // LIMIT in SQL: the join is many-to-one, one row a backup (skip/take would first find the
        // page's ids with a DISTINCT query of their own).
        .offset(query.offset)
        .limit(query.limit)
        .getMany(),
      // count(*), not TypeORM's COUNT(DISTINCT id) over the join: one row a backup either way,
      // and a team of 10,000 backups counts in a third of the time.
      this.filtered(teamId, query, false).select('count(*)::int', 'total').getRawOne<{ total: number }>(),
    ]);
    return { rows, total: counted?.total ?? 0 };
  }

  async stats(teamId: string, query: ListBackupsQuery): Promise<BackupStatsRow> {
    const totals = await this.filtered(teamId, query, false)
      .select('count(*)::int', 'total')
      .addSelect(`count(*) FILTER (WHERE backup.status = 'completed')::int`, 'completed')
      .addSelect(`count(*) FILTER (WHERE backup.status = 'failed')::int`, 'failed')
      .addSelect('coalesce(sum(backup.size), 0)::bigint', 'totalSize')
      .getRawOne<{ total: number; completed: number; failed: number; totalSize: string }>();
    const types = await this.filtered(teamId, query, false)
      .select('DISTINCT unnest(backup.resource_types)', 'type')
      .orderBy('type')
      .getRawMany<{ type: string }>();
    return {
      total: totals?.total ?? 0,
      completed: totals?.completed ?? 0,
      failed: totals?.failed ?? 0,
      totalSize: Number(totals?.totalSize ?? 0),
      resourceTypes: types.map((row) => row.type),
    };
  }

  /** Marks (or clears) a backup whose objects a failure could not delete (BackupEntity.discardPending). */
  async setDiscardPending(id: string, pending: boolean): Promise<void> {
    await this.rows.update({ id }, { discardPending: pending });
  }

  /** Failed backups whose objects are still to be deleted, oldest first, at most `limit`. */
  findDiscardPending(limit: number): Promise<Array<Pick<BackupEntity, 'id' | 'storageKey'>>> {
    return this.rows.find({
      select: { id: true, storageKey: true },
      where: { discardPending: true, status: 'failed' },
      order: { startedAt: 'ASC' },
      take: limit,
    });
  }

  /** Turns a planned incremental backup into a full one (its base could not be used). */
  async fallBackToFull(id: string): Promise<void> {
    await this.updateIf(id, ['running'], { kind: 'full', baseBackupId: null });
  }

  /**
   * The backups retention deletes at `now` (docs/backups.md "Retention"), oldest first, at most
   * `limit`. Per connection, the rule of the moment is its schedule's `retention_days` and
   * `retention_count`, each capped by the team's plan (`retention_days`, `max_retention_count`),
   * a null days setting falling back to the plan's and a null count keeping none beyond the
   * newest. A backup goes only when it is BOTH older than the days AND not among the newest
   * `count` completed backups of its connection: each keep rule keeps what it selects, as restic
   * `forget` keeps a snapshot selected by any `--keep-*` option (`--keep-within`, `--keep-last`)
   * and Commvault ages a job only once both its retention days and cycles are exceeded. Never a
   * running backup; never the newest completed backup of a connection that is not deleted (a
   * deleted connection's backups all expire, spec "Connections"); no days at all (a plan
   * without retention) keeps everything. Failed backups count toward no `count` and go by age.
   */
  async findExpired(
    now: Date,
    limit: number,
  ): Promise<Array<Pick<BackupEntity, 'id' | 'teamId' | 'storageKey'>>> {
    return (await this.rows.query(
      `SELECT ranked.id, ranked.team_id AS "teamId", ranked.storage_key AS "storageKey"
       FROM (
         SELECT b.id, b.team_id, b.connection_id, b.storage_key, b.started_at,
           CASE WHEN b.status = 'completed' THEN row_number() OVER (
             PARTITION BY b.connection_id, b.status = 'completed' ORDER BY b.started_at DESC, b.id DESC
           ) END AS completed_rank
         FROM backups b
         WHERE b.status <> 'running'
       ) ranked
       JOIN teams t ON t.id = ranked.team_id
       JOIN plans p ON p.name = t.plan
       JOIN connections c ON c.id = ranked.connection_id
       LEFT JOIN schedules s ON s.connection_id = ranked.connection_id
       CROSS JOIN LATERAL (
         -- LEAST skips NULLs: a null setting takes the plan's days, a plan without retention the setting's.
         SELECT LEAST(s.retention_days, p.retention_days) AS days,
           GREATEST(
             CASE WHEN s.retention_count IS NULL THEN 0 ELSE LEAST(s.retention_count, p.max_retention_count) END,
             CASE WHEN c.deleted_at IS NULL THEN 1 ELSE 0 END
           ) AS keep_newest
       ) rule
       WHERE rule.days IS NOT NULL
         AND ranked.started_at < $1::timestamptz - make_interval(days => rule.days)
         AND (ranked.completed_rank IS NULL OR ranked.completed_rank > rule.keep_newest)
       ORDER BY ranked.started_at ASC, ranked.id ASC
       LIMIT $2`,
      [now, limit],
    )) as Array<Pick<BackupEntity, 'id' | 'teamId' | 'storageKey'>>;
  }

  async delete(teamId: string, id: string, tx?: Transaction): Promise<void> {
    await within(this.rows, tx).delete({ id, teamId });
  }

  /**
   * The team's backups that match the list's filters, with their connection (`withConnection`,
   * the default) or joined to it only when the search needs its names (counts and stats).
   */
  private filtered(
    teamId: string,
    query: ListBackupsQuery,
    withConnection = true,
  ): SelectQueryBuilder<BackupEntity> {
    const qb = this.rows.createQueryBuilder('backup');
    if (withConnection) qb.innerJoinAndSelect('backup.connection', 'connection');
    else if (query.search) qb.innerJoin('backup.connection', 'connection');
    qb.where('backup.team_id = :teamId', { teamId });
    if (query.connectionId)
      qb.andWhere('backup.connection_id = :connectionId', { connectionId: query.connectionId });
    if (query.connectionIds?.length)
      qb.andWhere('backup.connection_id IN (:...connectionIds)', { connectionIds: query.connectionIds });
    if (query.status) qb.andWhere('backup.status = :status', { status: query.status });
    if (query.from) qb.andWhere('backup.started_at >= :from', { from: query.from });
    if (query.to) qb.andWhere('backup.started_at <= :to', { to: query.to });
    if (query.resourceTypes?.length)
      qb.andWhere('backup.resource_types && :types::text[]', { types: query.resourceTypes });
    if (query.minSize !== undefined) qb.andWhere('backup.size >= :minSize', { minSize: query.minSize });
    if (query.maxSize !== undefined) qb.andWhere('backup.size <= :maxSize', { maxSize: query.maxSize });
    if (query.search) {
      const pattern = `%${query.search.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
      qb.andWhere(
        `(connection.org_name ILIKE :pattern OR connection.org_url ILIKE :pattern OR backup.error_message ILIKE :pattern
          OR array_to_string(backup.resource_types, ' ') ILIKE :pattern)`,
        { pattern },
      );
    }
    return qb;
  }
}
