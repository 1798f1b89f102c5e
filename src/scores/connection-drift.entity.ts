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

  /**
   * where counting began: \`since\`, or later when the provider's audit log no longer reached back
   * to it (null in readings taken before this was recorded: they counted from \`since\`)
   */
  @Column('timestamptz', { name: 'counted_from', nullable: true })
  countedFrom!: Date | null;

  /** why \`countedFrom\` is later than \`since\` (the log's retention), else null */
  @Column('text', { name: 'incomplete_reason', nullable: true })
  incompleteReason!: string | null;

  /** why the last reading failed (the counts are then from the reading before) */
  @Column('text', { nullable: true })
  error!: string | null;
}
