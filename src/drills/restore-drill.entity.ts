import { Column, Entity } from 'typeorm';
import type { CrossOrgMapping } from '@libs/restore/cross-org/mapping.js';
import type { SandboxDrillReport } from '@app/restore/cross-org/sandbox-drill-report.js';
import { ConnectionRunEntity } from '@app/connections/connection-run.entity.js';

/** `pending` -> `running` -> `completed` (the snapshot passed) | `failed` (it did not, or could not be read). */
export type RestoreDrillStatus = 'pending' | 'running' | 'completed' | 'failed';

/** Who asked for a drill: a member through the API, or a schedule's weekly verification. */
export type RestoreDrillTrigger = 'manual' | 'schedule';

/** What a passed drill read: every part and index shard of the snapshot, end to end. */
export interface RestoreDrillResult {
  /** resource types (one part each) */
  parts: number;
  /** records decrypted, parsed and matched with their index entry */
  records: number;
  /** stored bytes read (parts and index shards; the manifest not counted) */
  bytes: number;
  /** how long the read took, milliseconds */
  durationMs: number;
}

/**
 * One verification drill of a stored snapshot (migrations/1765500000000-CreateRestoreDrills.ts,
 * docs/backups.md "Verification drills"): a tracked run queued as `pending`, taken once.
 */
@Entity('restore_drills')
export class RestoreDrillEntity extends ConnectionRunEntity {
  declare status: RestoreDrillStatus;

  /** null once the backup was deleted */
  @Column('uuid', { name: 'backup_id', nullable: true })
  backupId!: string | null;

  /** SHA-256 of the backup's manifest as recorded when it was written: what the drill checked against */
  @Column('text', { name: 'backup_sha256', nullable: true })
  backupSha256!: string | null;

  @Column('uuid', { name: 'requested_by', nullable: true })
  requestedBy!: string | null;

  @Column('text', { name: 'triggered_by' })
  triggeredBy!: RestoreDrillTrigger;

  /** set when the drill passed */
  @Column('jsonb', { nullable: true })
  result!: RestoreDrillResult | null;

  /** a sandbox drill: the connection the backup is restored into (null once deleted); else null */
  @Column('uuid', { name: 'target_connection_id', nullable: true })
  targetConnectionId!: string | null;

  /** a sandbox drill: what carries the backup into the sandbox (`{}` when nothing); else null */
  @Column('jsonb', { nullable: true })
  mapping!: CrossOrgMapping | null;

  /** a sandbox drill, once over: what the restore into the sandbox did and what still differs */
  @Column('jsonb', { nullable: true })
  sandbox!: SandboxDrillReport | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt!: Date;
}
