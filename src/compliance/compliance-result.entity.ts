import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Finding } from '@libs/compliance/compliance-types.js';

/** A framework's findings on one backup, for one catalogue version (migrations/1764400000000-CreateCompliance.ts). */
@Entity('compliance_results')
export class ComplianceResultEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid', { name: 'team_id' })
  teamId!: string;

  @Column('uuid', { name: 'connection_id' })
  connectionId!: string;

  @Column('uuid', { name: 'backup_id' })
  backupId!: string;

  @Column('text')
  framework!: string;

  @Column('text', { name: 'catalogue_version' })
  catalogueVersion!: string;

  @Column('text', { name: 'framework_version' })
  frameworkVersion!: string;

  @Column('integer')
  score!: number;

  @Column('jsonb')
  findings!: Finding[];

  @Column('timestamptz', { name: 'generated_at' })
  generatedAt!: Date;
}
