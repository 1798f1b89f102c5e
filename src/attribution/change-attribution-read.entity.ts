import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * Whether one backup could read the provider's audit log for who changed what, and why not
 * (migrations/1796686158064-CreateChangeAttributionReads.ts; docs/diff.md "Who changed it").
 */
@Entity('change_attribution_reads')
export class ChangeAttributionReadEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  /** null once retention deleted the backup */
  @Column('uuid', { name: 'backup_id', nullable: true })
  backupId!: string | null;

  @Column('uuid', { name: 'team_id' })
  teamId!: string;

  @Column('uuid', { name: 'connection_id' })
  connectionId!: string;

  @Column('timestamptz', { name: 'backup_started_at' })
  backupStartedAt!: Date;

  /** why the log could not be read (the provider's answer, naming a missing permission); null when it was */
  @Column('text', { nullable: true })
  unavailable!: string | null;
}
