import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Why a reading was taken: the daily job, or a completed backup. */
export type ScoreReadingCause = 'daily' | 'backup';

/**
 * One reading of a connection's resilience and readiness (migrations/1766340000000-CreateScoreReadings.ts,
 * docs/scores.md "History"). Both scores 0-100, as GET /api/scores/resilience and /readiness answered then.
 */
@Entity('score_readings')
export class ScoreReadingEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column('uuid', { name: 'team_id' })
  teamId!: string;

  @Column('uuid', { name: 'connection_id' })
  connectionId!: string;

  @Column('timestamptz')
  at!: Date;

  /** UTC day of `at`: a connection has at most one daily reading per day */
  @Column('date')
  day!: string;

  @Column('text')
  cause!: ScoreReadingCause;

  @Column('smallint')
  resilience!: number;

  @Column('smallint')
  readiness!: number;
}
