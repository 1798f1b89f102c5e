import { Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { ConnectionEntity } from '@app/connections/connection.entity.js';

export type BackupStatus = 'running' | 'completed' | 'failed';
export type BackupKind = 'full' | 'incremental';
export type BackupTrigger = 'manual' | 'schedule' | 'pre_restore';

/** One snapshot of a connection (spec "Backup", DESIGN section 4). */
@Entity('backups')
export class BackupEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column('uuid', { name: 'team_id' })
  teamId!: string;

  @Column('uuid', { name: 'connection_id' })
  connectionId!: string;

  @ManyToOne(() => ConnectionEntity)
  @JoinColumn({ name: 'connection_id' })
  connection!: Relation<ConnectionEntity>;

  @Column('uuid', { name: 'owner_user_id' })
  ownerUserId!: string;

  @Column('text')
  status!: BackupStatus;

  @Column('text')
  kind!: BackupKind;

  @Column('uuid', { name: 'base_backup_id', nullable: true })
  baseBackupId!: string | null;

  @Column('text', { name: 'triggered_by' })
  triggeredBy!: BackupTrigger;

  @Column('text', { array: true, nullable: true })
  include!: string[] | null;

  @Column('boolean', { name: 'include_workflows' })
  includeWorkflows!: boolean;

  @Column('text', { name: 'job_id', nullable: true })
  jobId!: string | null;

  @Column('real', { name: 'progress_pct' })
  progressPct!: number;

  @Column('text', { name: 'progress_message' })
  progressMessage!: string;

  @Column('text', { name: 'error_message', nullable: true })
  errorMessage!: string | null;

  @Column('timestamptz', { name: 'started_at' })
  startedAt!: Date;

  @Column('timestamptz', { name: 'completed_at', nullable: true })
  completedAt!: Date | null;

  @Column('timestamptz', { name: 'heartbeat_at' })
  heartbeatAt!: Date;

  @Column('text', { name: 'storage_key' })
  storageKey!: string;

  @Column('jsonb', { name: 'resource_counts' })
  resourceCounts!: Record<string, number>;

  @Column('text', { name: 'resource_types', array: true })
  resourceTypes!: string[];

  /** Bytes stored (pg bigint arrives as a string; the mapper converts). */
  @Column('bigint')
  size!: string;

  @Column('text', { nullable: true })
  sha256!: string | null;

  @Column('integer')
  requests!: number;
}
