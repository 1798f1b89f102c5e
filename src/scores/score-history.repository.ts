import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { type ScoreReadingCause, ScoreReadingEntity } from './score-reading.entity.js';

/** Readings older than this are deleted whatever the plan keeps (docs/scores.md "History"). */
export const MAX_HISTORY_DAYS = 400;

/** One connection's two scores, to store. */
export interface NewScoreReading {
  teamId: string;
  connectionId: string;
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
   * Stores `readings`, all taken at `at` for `cause`, in one statement; a daily reading of a connection
   * whose UTC day of `at` already has one is skipped, so running a day's job again changes nothing.
   * @returns how many rows were inserted
   */
  async insert(at: Date, cause: ScoreReadingCause, readings: readonly NewScoreReading[]): Promise<number> {
    if (readings.length === 0) return 0;
    const rows: unknown[] = await this.readings.query(
      `INSERT INTO score_readings (team_id, connection_id, at, day, cause, resilience, readiness)
       SELECT r.team_id, r.connection_id, $1::timestamptz, ($1::timestamptz AT TIME ZONE 'UTC')::date, $2::text,
              r.resilience, r.readiness
         FROM unnest($3::uuid[], $4::uuid[], $5::smallint[], $6::smallint[])
           AS r (team_id, connection_id, resilience, readiness)
       ON CONFLICT (connection_id, day) WHERE cause = 'daily' DO NOTHING
       RETURNING id`,
      [
        at,
        cause,
        readings.map((r) => r.teamId),
        readings.map((r) => r.connectionId),
        readings.map((r) => r.resilience),
        readings.map((r) => r.readiness),
      ],
    );
    return rows.length;
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
