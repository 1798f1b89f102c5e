import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { Role } from '@app/common/permission.js';
import {
  APPROVAL_ACTIONS,
  APPROVAL_STATUSES,
  type ApprovalAction,
  type ApprovalStatus,
} from '@app/approvals/approval.entity.js';

/** What a held request acts on. */
@ApiSchema({ name: 'ApprovalTarget' })
export class ApprovalTargetDto {
  @ApiProperty({ example: 'backup', description: '`backup`, `connection`, `team`.' }) type!: string;
  @ApiProperty({ type: 'string', nullable: true, description: 'Its id; null for the team itself.' })
  id!: string | null;
  @ApiProperty({ example: 'Full restore of backup 0d6c2a8e… into https://acme.okta.com' }) summary!: string;
}

/** Who asked. */
@ApiSchema({ name: 'ApprovalRequester' })
export class ApprovalRequesterDto {
  @ApiProperty({ format: 'uuid', description: 'The member (for a client: the member it acts for).' })
  user_id!: string;
  @ApiProperty({ enum: ['super_admin', 'admin', 'operator', 'auditor', 'viewer'] }) role!: Role;
  @ApiProperty({ type: 'string', nullable: true, description: 'Set when an integration client asked.' })
  client_id!: string | null;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The agent or tool that asked, as named by it.',
  })
  client_name!: string | null;
}

/** One JSON Patch operation (RFC 6902) between the preview the requester saw and today's. */
@ApiSchema({ name: 'ApprovalPreviewChange' })
export class ApprovalPreviewChangeDto {
  @ApiProperty({ enum: ['add', 'remove', 'replace', 'move', 'copy', 'test'] }) op!: string;
  @ApiProperty({ example: '/rows/group/create' }) path!: string;
  @ApiPropertyOptional({
    description: 'The value after (`add`, `replace`) or the one tested (`test`: before).',
  })
  value?: unknown;
}

/** The dry run re-read against the live org now, and what changed since the requester's. */
@ApiSchema({ name: 'ApprovalLivePreview' })
export class ApprovalLivePreviewDto {
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'GET /api/restore, read now.' })
  preview!: Record<string, unknown>;
  @ApiProperty({
    type: [ApprovalPreviewChangeDto],
    description:
      'From the requester’s preview to this one, by type (`/rows/<type>/<count>`) and prune candidate (`/prune/<type>:<id>`); each `replace` and `remove` follows a `test` of the earlier value. Empty: nothing changed.',
  })
  changes!: ApprovalPreviewChangeDto[];
  @ApiPropertyOptional({ description: 'Set instead when the live org could not be read now.' })
  error?: string;
}

/** A request held for a second person's approval (docs/approvals.md). */
@ApiSchema({ name: 'Approval' })
export class ApprovalDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: APPROVAL_ACTIONS }) action!: ApprovalAction;
  @ApiProperty({ type: ApprovalTargetDto }) what!: ApprovalTargetDto;
  @ApiProperty({ type: ApprovalRequesterDto }) requester!: ApprovalRequesterDto;
  @ApiProperty({ enum: APPROVAL_STATUSES }) status!: ApprovalStatus;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time', description: 'A pending request expires then and can no longer run.' })
  expires_at!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The request’s body, run as it is.',
  })
  body!: Record<string, unknown>;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'What the requester saw (a restore’s dry run, GET /api/restore); null for other actions.',
  })
  preview!: Record<string, unknown> | null;
  @ApiProperty({ type: 'string', format: 'uuid', nullable: true }) decided_by!: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) decided_at!: string | null;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The rejection’s reason, or the approver’s note.',
  })
  reason!: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) executed_at!: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'What running it answered, e.g. `{ restoreId }`.',
  })
  result!: Record<string, unknown> | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'Why the approved action could not start.' })
  error!: string | null;
}

/** How a held request answers, said on every operation that may hold one. */
export const HELD_DESCRIPTION =
  'When the team requires two-person approval for it: 202 with `status: pending_approval` and the pending request (docs/approvals.md).';

/** The 202 of a request that waits for a second member's approval. */
@ApiSchema({ name: 'ApprovalHeld' })
export class ApprovalHeldDto {
  @ApiProperty({ enum: ['pending_approval'] }) status!: 'pending_approval';
  @ApiProperty({ type: ApprovalDto }) approval!: ApprovalDto;
}

/** One request: the answer of a decision on it. */
@ApiSchema({ name: 'ApprovalEnvelope' })
export class ApprovalEnvelopeDto {
  @ApiProperty({ type: ApprovalDto }) approval!: ApprovalDto;
}

/** GET /api/approvals/{id}: the request, and for a pending restore its dry run re-read now. */
@ApiSchema({ name: 'ApprovalDetail' })
export class ApprovalDetailDto extends ApprovalEnvelopeDto {
  @ApiPropertyOptional({ type: ApprovalLivePreviewDto, description: 'Pending restores only.' })
  live?: ApprovalLivePreviewDto;
}

/** GET /api/approvals. */
@ApiSchema({ name: 'ApprovalList' })
export class ApprovalListDto {
  @ApiProperty({ type: [ApprovalDto] }) approvals!: ApprovalDto[];
  @ApiProperty() total!: number;
}
