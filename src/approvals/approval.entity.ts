import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { Role } from '@app/common/permission.js';

/** What a request held for approval would do (docs/approvals.md). */
export const APPROVAL_ACTIONS = [
  'restore',
  'backup_delete',
  'connection_delete',
  'account_delete',
  'settings',
] as const;
export type ApprovalAction = (typeof APPROVAL_ACTIONS)[number];

/**
 * `pending` -> `approved` -> `executed`, or `pending` -> `rejected` | `expired` (docs/approvals.md).
 * `approved` stays when the approved action failed to start (`error` says why).
 */
export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'expired', 'executed'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** One request held for a second person's approval (migrations/1796674935533-CreateApprovals.ts). */
@Entity('approvals')
export class ApprovalEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid', { name: 'team_id' })
  teamId!: string;

  @Column('text')
  action!: ApprovalAction;

  @Column('text', { name: 'target_type' })
  targetType!: string;

  @Column('text', { name: 'target_id', nullable: true })
  targetId!: string | null;

  /** one line saying what the request does, for the list */
  @Column('text')
  summary!: string;

  /** the request's body, run as it is on approval */
  @Column('jsonb')
  body!: Record<string, unknown>;

  /** what the requester saw (a restore's dry run), or null */
  @Column('jsonb', { nullable: true })
  preview!: Record<string, unknown> | null;

  @Column('uuid', { name: 'requested_by' })
  requestedBy!: string;

  @Column('text', { name: 'requester_role' })
  requesterRole!: Role;

  /** set when an integration client asked */
  @Column('text', { name: 'requester_client_id', nullable: true })
  requesterClientId!: string | null;

  /** the name of the agent or tool that asked, as its caller gave it (the MCP server) */
  @Column('text', { name: 'client_name', nullable: true })
  clientName!: string | null;

  @Column('text')
  status!: ApprovalStatus;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'expires_at' })
  expiresAt!: Date;

  @Column('uuid', { name: 'decided_by', nullable: true })
  decidedBy!: string | null;

  @Column('timestamptz', { name: 'decided_at', nullable: true })
  decidedAt!: Date | null;

  /** the rejecter's reason, or the approver's note */
  @Column('text', { nullable: true })
  reason!: string | null;

  @Column('timestamptz', { name: 'executed_at', nullable: true })
  executedAt!: Date | null;

  /** what running it answered (e.g. `{ restoreId }`) */
  @Column('jsonb', { nullable: true })
  result!: Record<string, unknown> | null;

  /** why the approved action could not start */
  @Column('text', { nullable: true })
  error!: string | null;
}
