import {
  Column,
  CreateDateColumn,
  Entity,
  JoinColumn,
  OneToOne,
  PrimaryColumn,
  type Relation,
  UpdateDateColumn,
} from 'typeorm';
import { ConnectionEntity } from '@app/connections/connection.entity.js';
import type { Frequency } from './frequency.js';
import type { ScheduleSettings } from './schedule-settings.js';

/** The saved schedule of one connection (migration CreateSchedules); no row means the default schedule. */
@Entity('schedules')
export class ScheduleEntity implements ScheduleSettings {
  @PrimaryColumn('uuid', { name: 'connection_id' })
  connectionId!: string;

  @OneToOne(() => ConnectionEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'connection_id' })
  connection!: Relation<ConnectionEntity>;

  @Column('uuid', { name: 'team_id' })
  teamId!: string;

  @Column('boolean')
  enabled!: boolean;

  @Column('text')
  frequency!: Frequency;

  @Column('smallint')
  hour!: number;

  @Column('smallint')
  minute!: number;

  @Column('smallint', { name: 'day_of_week', nullable: true })
  dayOfWeek!: number | null;

  @Column('smallint', { name: 'day_of_month', nullable: true })
  dayOfMonth!: number | null;

  @Column('text')
  timezone!: string;

  @Column('boolean', { name: 'incremental_enabled' })
  incrementalEnabled!: boolean;

  @Column('smallint', { name: 'full_backup_day' })
  fullBackupDay!: number;

  @Column('boolean', { name: 'verify_weekly' })
  verifyWeekly!: boolean;

  @Column('uuid', { name: 'verify_sandbox_connection_id', nullable: true })
  verifySandboxConnectionId!: string | null;

  @Column('integer', { name: 'retention_days', nullable: true })
  retentionDays!: number | null;

  @Column('integer', { name: 'retention_count', nullable: true })
  retentionCount!: number | null;

  /** The slot the scheduler claims next; null while disabled. */
  @Column('timestamptz', { name: 'next_run_at', nullable: true })
  nextRunAt!: Date | null;

  @Column('timestamptz', { name: 'last_run_at', nullable: true })
  lastRunAt!: Date | null;

  @Column('uuid', { name: 'last_backup_id', nullable: true })
  lastBackupId!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
