import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The drift job's last reading for one connection (migrations/1764500000000-CreateConnectionDrift.ts). */
@Entity('connection_drift')
export class ConnectionDriftEntity {
  @PrimaryColumn('uuid', { name: 'connection_id' })
  connectionId!: string;

  @Column('uuid', { name: 'team_id' })
  teamId!: string;

  /** the last backup's start: changes are counted from here */
  @Column('timestamptz')
  since!: Date;

  @Column('integer')
  changes!: number;

  @Column('jsonb', { name: 'by_severity' })
  bySeverity!: Record<string, number>;

  @Column('timestamptz', { name: 'checked_at' })
  checkedAt!: Date;

  /** why the last reading failed (the counts are then from the reading before) */
  @Column('text', { nullable: true })
  error!: string | null;
}
