import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ApprovalDto } from '@app/approvals/dto/approval.dto.js';
import { EXPORT_SECTIONS } from '@app/identity/account/export-sections.js';

/**
 * GET /api/account/export: every row held for the team, secrets redacted. The head is typed; each
 * section is the table's rows as stored (src/identity/account/export-sections.ts), so its items are open.
 */
@ApiSchema({
  name: 'AccountExport',
  description: `Sections after the head, each an array of rows: ${EXPORT_SECTIONS.map((s) => s.name).join(', ')}.`,
})
export class AccountExportDto {
  @ApiProperty({ type: 'integer', example: 1 }) format_version!: number;
  @ApiProperty({ format: 'date-time' }) generated_at!: string;
  @ApiProperty({ format: 'uuid' }) team_id!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    description: 'Rows per section.',
    example: { members: 3, connections: 2 },
  })
  counts!: Record<string, number>;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The team row.' })
  team!: Record<string, unknown>;
}

/** POST /api/account/delete: the deletion is scheduled (30-day grace, cancellable). */
@ApiSchema({ name: 'DeletionScheduled' })
export class DeletionScheduledDto {
  @ApiProperty({ enum: ['scheduled', 'pending_approval'], example: 'scheduled' }) status!:
    'scheduled' | 'pending_approval';
  @ApiPropertyOptional({
    format: 'date-time',
    description: 'When deletion starts unless cancelled; absent while it waits for approval.',
  })
  scheduled_for?: string;
  @ApiPropertyOptional({
    type: ApprovalDto,
    description:
      'When the team requires two-person approval for it: the pending request (docs/approvals.md).',
  })
  approval?: ApprovalDto;
}

/** DELETE /api/account/delete: the pending deletion is cancelled. */
@ApiSchema({ name: 'DeletionCancelled' })
export class DeletionCancelledDto {
  @ApiProperty({ enum: ['cancelled'], example: 'cancelled' }) status!: 'cancelled';
}
