import { Column, Entity } from 'typeorm';
import { ConnectionRunEntity } from '@app/connections/connection-run.entity.js';

export type BackupStatus = 'running' | 'completed' | 'failed';
export type BackupKind = 'full' | 'incremental';
export type BackupTrigger = 'manual' | 'schedule' | 'pre_restore';

/**
 * One snapshot of a connection (spec "Backup", DESIGN section 4): a tracked run queued as
 * `running` (a retried job starts it over), started when it is requested.
 */
@Entity('backups')
export class BackupEntity extends ConnectionRunEntity {
  declare status: BackupStatus;
  declare startedAt: Date;

  @Column('uuid', { name: 'owner_user_id' })
  ownerUserId!: string;

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

  /** Its objects could not be deleted when it failed; the retention run deletes them later. */
  @Column('boolean', { name: 'discard_pending', default: false })
  discardPending!: boolean;
}
