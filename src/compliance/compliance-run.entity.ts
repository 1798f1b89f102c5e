import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One compliance check request, kept as the audit trail of check runs. */
@Entity('compliance_runs')
export class ComplianceRunEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column('uuid', { name: 'team_id' })
  teamId!: string;

  @Column('uuid', { name: 'result_id', nullable: true })
  resultId!: string | null;

  @Column('uuid', { name: 'connection_id' })
  connectionId!: string;

  @Column('uuid', { name: 'backup_id' })
  backupId!: string;

  @Column('text')
  framework!: string;

  @Column('uuid', { name: 'requested_by', nullable: true })
  requestedBy!: string | null;

  @Column('text', { name: 'client_id', nullable: true })
  clientId!: string | null;

  @Column('text', { name: 'served_from' })
  servedFrom!: 'computed' | 'stored';

  @Column('integer')
  score!: number;

  @Column('timestamptz', { name: 'occurred_at' })
  occurredAt!: Date;
}
