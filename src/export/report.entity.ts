import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ReportType } from './dto/report-request.dto.js';

/** A stored PDF report (migrations/1765600000000-CreateReports.ts): its object and when it expires. */
@Entity('reports')
export class ReportEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid', { name: 'team_id' })
  teamId!: string;

  @Column('text')
  type!: ReportType;

  /** `teams/<team>/reports/<id>.pdf` */
  @Column('text', { name: 'object_key' })
  objectKey!: string;

  @Column('uuid', { name: 'created_by', nullable: true })
  createdBy!: string | null;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt!: Date;

  /** when its signed URL stops working; the report-expiry job removes it after */
  @Column('timestamptz', { name: 'expires_at' })
  expiresAt!: Date;
}
