import { Column, Entity } from 'typeorm';
import type { FrameworkId } from '@libs/compliance/frameworks/framework-types.js';
import { ConnectionRunEntity } from '@app/connections/connection-run.entity.js';

/** `pending` -> `running` -> `completed` | `failed` (a check writes only its result: never partial). */
export type ComplianceCheckStatus = 'pending' | 'running' | 'completed' | 'failed';

/**
 * A compliance check run as a job (migrations/1766300000000-CreateComplianceChecks.ts): a
 * tracked run queued `pending`, taken once, whose `resultId` names the stored result once
 * `completed`.
 */
@Entity('compliance_checks')
export class ComplianceCheckEntity extends ConnectionRunEntity {
  declare status: ComplianceCheckStatus;

  /** null once retention deleted the backup */
  @Column('uuid', { name: 'backup_id', nullable: true })
  backupId!: string | null;

  @Column('text')
  framework!: FrameworkId;

  @Column('uuid', { name: 'requested_by', nullable: true })
  requestedBy!: string | null;

  /** the integration client that asked, when one did */
  @Column('text', { name: 'client_id', nullable: true })
  clientId!: string | null;

  /** the stored result (`compliance_results`) once completed */
  @Column('uuid', { name: 'result_id', nullable: true })
  resultId!: string | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt!: Date;
}
