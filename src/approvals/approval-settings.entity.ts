import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** A team's two-person approval setting; no row means off (migrations/1796674935533-CreateApprovals.ts). */
@Entity('team_approval_settings')
export class ApprovalSettingsEntity {
  @PrimaryColumn('uuid', { name: 'team_id' })
  teamId!: string;

  /** restores need approval (always, when on) */
  @Column('boolean')
  enabled!: boolean;

  @Column('boolean', { name: 'backup_delete' })
  backupDelete!: boolean;

  @Column('boolean', { name: 'connection_delete' })
  connectionDelete!: boolean;

  @Column('boolean', { name: 'account_delete' })
  accountDelete!: boolean;

  /** hours a request waits before it expires, 1 to 168 */
  @Column('integer', { name: 'expiry_hours' })
  expiryHours!: number;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column('uuid', { name: 'updated_by', nullable: true })
  updatedBy!: string | null;
}
