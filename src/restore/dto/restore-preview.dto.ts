import { ApprovalDto } from '@app/approvals/dto/approval.dto.js';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { SEVERITIES, type Severity } from '@libs/diff/change-facts.js';
import type { PruneCandidate, RestorePreviewRow } from '@libs/restore/preview.js';
import { CrossOrgPreviewDto } from '@app/restore/cross-org/dto/cross-org-preview.dto.js';
import type { NotRestorable, RestorePreview, RestorePreviewQueued } from '@app/restore/restore-results.js';

/** One type of a restore preview (spec "Restore preview row"). */
@ApiSchema({ name: 'RestorePreviewRow' })
export class RestorePreviewRowDto implements RestorePreviewRow {
  @ApiProperty({ example: 'group' }) resourceType!: string;
  @ApiProperty({ type: 'integer', description: 'In the backup, not in the live org: would be created.' })
  create!: number;
  @ApiProperty({ type: 'integer', description: 'In both, different: would be changed into the backup’s.' })
  update!: number;
  @ApiProperty({ type: 'integer', description: 'In both and the same, or left alone.' }) skip!: number;
  @ApiProperty({ type: 'integer', description: 'In the live org only; removed only with `prune: true`.' })
  pruneCandidates!: number;
  @ApiProperty({
    type: 'integer',
    description:
      'Of `create`: brought back from the provider’s deleted items with their old ids (Entra ID: `restore_from_deleted`), not created anew.',
  })
  restoreFromDeleted!: number;
  @ApiProperty({ type: [String] }) notes!: string[];
}

/** A live resource the backup lacks, and the severity its removal would have (docs/severity.md). */
@ApiSchema({ name: 'PruneCandidate' })
export class PruneCandidateDto implements PruneCandidate {
  @ApiProperty() resourceType!: string;
  @ApiProperty() id!: string;
  @ApiProperty({ type: String, nullable: true }) name!: string | null;
  @ApiProperty({ enum: SEVERITIES }) severity!: Severity;
  @ApiPropertyOptional({
    description: 'Why a prune leaves it all the same (the lockout guard: the connection’s own integration).',
  })
  protectedBecause?: string;
}

/** What a restore of a type cannot bring back: fields the provider never returns. */
@ApiSchema({ name: 'NotRestorable' })
export class NotRestorableDto implements NotRestorable {
  @ApiProperty() resourceType!: string;
  @ApiProperty({ type: [String] }) items!: string[];
  @ApiProperty() why!: string;
}

/** GET /api/restore, and POST /api/restore without `mode` (spec "Restore"): the dry run. */
@ApiSchema({ name: 'RestorePreview' })
export class RestorePreviewDto implements RestorePreview {
  @ApiProperty({ type: [RestorePreviewRowDto] }) preview!: RestorePreviewRowDto[];
  @ApiProperty({ format: 'uri', example: 'https://acme.okta.com' }) sourceOrgUrl!: string;
  @ApiProperty({ format: 'date-time', description: 'When the live org was read.' }) collectedAt!: string;
  @ApiProperty({
    type: [PruneCandidateDto],
    description: 'At most 1,000 listed; all are counted in the rows.',
  })
  prune!: PruneCandidateDto[];
  @ApiProperty({ type: [NotRestorableDto] }) notRestorable!: NotRestorableDto[];
  @ApiPropertyOptional({
    type: CrossOrgPreviewDto,
    description:
      'Beyond the spec, with `targetConnectionId`: the restore into another org, object by object.',
  })
  crossOrg?: CrossOrgPreviewDto;
}

/** Beyond the spec: a dry run queued as a job (`Prefer: respond-async`); poll GET /api/restore/previews/{previewId}. */
@ApiSchema({ name: 'RestorePreviewQueued' })
export class RestorePreviewQueuedDto implements RestorePreviewQueued {
  @ApiProperty({ format: 'uuid', example: '6f1c0a8d-2f3e-4b4e-9f51-0d6c2a8e5a5b' }) previewId!: string;
  @ApiProperty({ enum: ['pending'] }) status!: 'pending';
}

/**
 * The 202 of POST /api/restore: a restore started (`restoreId`, `started`: spec "Restore"), or,
 * beyond the spec, a dry run queued as a job (`previewId`, `pending`: `Prefer: respond-async`).
 */
@ApiSchema({ name: 'RestoreAccepted' })
export class RestoreAcceptedDto {
  @ApiPropertyOptional({
    format: 'uuid',
    example: '0d6c2a8e-5a5b-4b4e-9f51-6f1c0a8d2f3e',
    description: 'With `mode`: the restore; poll GET /api/restore/{restoreId}.',
  })
  restoreId?: string;
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Without `mode`, queued: the dry run; poll GET /api/restore/previews/{previewId}.',
  })
  previewId?: string;
  @ApiProperty({ enum: ['started', 'pending', 'pending_approval'] }) status!:
    'started' | 'pending' | 'pending_approval';
  @ApiPropertyOptional({
    type: ApprovalDto,
    description:
      'With `mode`, when the team requires two-person approval: the pending request (docs/approvals.md).',
  })
  approval?: ApprovalDto;
}
