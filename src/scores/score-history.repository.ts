import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { type ScoreReadingCause, ScoreReadingEntity } from './score-reading.entity.js';

/** Readings older than this are deleted whatever the plan keeps (docs/scores.md "History"). */
export const MAX_HISTORY_DAYS = 400;

/** One connection's scores at `at`, to store. */
export interface NewScoreReading {
  teamId: string;
  connectionId: string;
  at: Date;
  cause: ScoreReadingCause;
  resilience: number;
  readiness: number;
}

/** The stored score readings (table `score_readings`): written by the score-history job, read by the history route. */
@Injectable()
export class ScoreHistoryRepository {
  constructor(
    @InjectRepository(ScoreReadingEntity) private readonly readings: Repository<ScoreReadingEntity>,
  ) {}

  /**
   * Stores `readings`; a daily reading of a connection whose day (UTC, of `at`) already has one is skipped,
   * so running a day's job again changes nothing.
   * @returns how many rows were inserted
   */
  async insert(readings: readonly NewScoreReading[]): Promise<number> {
    let inserted = 0;
    for (const r of readings) {
      const rows: unknown[] = await this.readings.query(
        `INSERT INTO score_readings (team_id, connection_id, at, day, cause, resilience, readiness)
         VALUES ($1, $2, $3, ($3::timestamptz AT TIME ZONE 'UTC')::date, $4, $5, $6)
         ON CONFLICT (connection_id, day) WHERE cause = 'daily' DO NOTHING
         RETURNING id`,
        [r.teamId, r.connectionId, r.at, r.cause, r.resilience, r.readiness],
      );
      inserted += rows.length;
    }
    return inserted;
  }

  /** A connection's readings taken at or after `since`, oldest first. The caller checks the team owns it. */
  list(teamId: string, connectionId: string, since: Date): Promise<ScoreReadingEntity[]> {
    return this.readings
      .createQueryBuilder('r')
      .where('r.team_id = :teamId AND r.connection_id = :connectionId AND r.at >= :since', {
        teamId,
        connectionId,
        since,
      })
      .orderBy('r.at', 'ASC')
      .addOrderBy('r.id', 'ASC')
      .getMany();
  }

  /**
   * Deletes the readings older than their team's plan keeps backups (`plans.retention_days`), and
   * than MAX_HISTORY_DAYS in any case, counted back from `now`.
   * @returns how many rows were deleted
   */
  async prune(now: Date): Promise<number> {
    const [, deleted]: [unknown, number] = await this.readings.query(
      `DELETE FROM score_readings r
        USING teams t JOIN plans p ON p.name = t.plan
        WHERE r.team_id = t.id
          AND r.at < $1::timestamptz - make_interval(days => least(coalesce(p.retention_days, $2), $2))`,
      [now, MAX_HISTORY_DAYS],
    );
    return deleted;
  }
}
