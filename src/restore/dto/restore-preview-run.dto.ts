import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  trackedRunFields,
  TrackedRunFieldsDto,
} from '@app/platform/database/tracked-run/tracked-run-fields.js';
import type { RestorePreviewEntity, RestorePreviewStatus } from '@app/restore/restore-preview.entity.js';
import type { RestorePreview } from '@app/restore/restore-results.js';
import { RestorePreviewDto } from './restore-preview.dto.js';
import { UndoPreviewDto } from '@app/restore/undo/undo-preview.dto.js';

/**
 * GET /api/restore/previews/{previewId} (beyond the spec, docs/restore.md): a preview queued as a
 * job, polled until `completed` (its `result` is then the preview GET /api/restore answers) or
 * `failed` (`error_message` says why).
 */
@ApiSchema({ name: 'RestorePreviewRun' })
export class RestorePreviewRunDto extends TrackedRunFieldsDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) connection_id!: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'null once retention deleted it.' })
  backup_id!: string | null;
  @ApiProperty({ type: [String] }) resource_types!: string[];
  @ApiProperty({ type: [String], nullable: true }) resource_ids!: string[] | null;
  @ApiProperty({ enum: ['pending', 'running', 'completed', 'failed'] }) status!: RestorePreviewStatus;
  @ApiPropertyOptional({
    type: RestorePreviewDto,
    nullable: true,
    description: 'Once completed: the preview, as GET /api/restore answers it.',
  })
  result!: RestorePreview | null;
  @ApiPropertyOptional({
    type: UndoPreviewDto,
    nullable: true,
    description: "An undo's dry run, once completed: the preview, as GET /api/restore/undo answers it.",
  })
  undo_result?: UndoPreviewDto | null;
}

/** The DTO of a preview run. */
export function toRestorePreviewRunDto(run: RestorePreviewEntity): RestorePreviewRunDto {
  return {
    id: run.id,
    connection_id: run.connectionId,
    backup_id: run.backupId,
    resource_types: run.resourceTypes,
    resource_ids: run.resourceIds,
    ...trackedRunFields(run),
    result: run.result,
    ...(run.undo ? { undo_result: run.undoResult } : {}),
  };
}
