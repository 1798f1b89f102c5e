import { Column, PrimaryColumn } from 'typeorm';

/**
 * The columns every tracked run shares (a backup, a restore: long work done by a pg-boss job),
 * inherited by each run's entity (TypeORM concrete table inheritance: one table per kind).
 * A run is queued `pending` (or `running`, for kinds whose retries start over), taken by its
 * worker (`running`, heartbeat every BACKUP_HEARTBEAT_SECONDS), then ends in a final status:
 * `completed`, `partial` or `failed` (DESIGN section 4: never `running` forever).
 * An entity narrows `status` and `startedAt` with `declare` when its kind allows fewer values.
 */
export abstract class TrackedRunEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid', { name: 'team_id' })
  teamId!: string;

  @Column('text')
  status!: string;

  /** 0 to 100 */
  @Column('real', { name: 'progress_pct' })
  progressPct!: number;

  @Column('text', { name: 'progress_message' })
  progressMessage!: string;

  /** A message safe to show (TrackedRunKind.describe), set when the run failed */
  @Column('text', { name: 'error_message', nullable: true })
  errorMessage!: string | null;

  /** The pg-boss job running it (the spec's `instanceId` of a backup) */
  @Column('text', { name: 'job_id', nullable: true })
  jobId!: string | null;

  @Column('timestamptz', { name: 'started_at', nullable: true })
  startedAt!: Date | null;

  @Column('timestamptz', { name: 'completed_at', nullable: true })
  completedAt!: Date | null;

  /** Last sign of life of its worker; the stale sweep fails a running run silent too long */
  @Column('timestamptz', { name: 'heartbeat_at' })
  heartbeatAt!: Date;
}
