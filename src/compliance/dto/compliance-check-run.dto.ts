import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  trackedRunFields,
  TrackedRunFieldsDto,
} from '@app/platform/database/tracked-run/tracked-run-fields.js';
import type {
  ComplianceCheckEntity,
  ComplianceCheckStatus,
} from '@app/compliance/compliance-check.entity.js';
import { ComplianceReportDto } from './compliance-report.dto.js';

/**
 * GET /api/compliance/checks/{checkId} (beyond the spec, docs/compliance.md): a check queued as
 * a job, polled until `completed` (its `result` is then the report POST /api/compliance/check
 * answers) or `failed` (`error_message` says why).
 */
@ApiSchema({ name: 'ComplianceCheckRun' })
export class ComplianceCheckRunDto extends TrackedRunFieldsDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) connection_id!: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'null once retention deleted it.' })
  backup_id!: string | null;
  @ApiProperty({ example: 'soc2' }) framework!: string;
  @ApiProperty({ enum: ['pending', 'running', 'completed', 'failed'] }) status!: ComplianceCheckStatus;
  @ApiPropertyOptional({
    type: ComplianceReportDto,
    nullable: true,
    description: 'Once completed: the report, as POST /api/compliance/check answers it.',
  })
  result!: ComplianceReportDto | null;
}

/** The DTO of a check run, with its stored result's report once completed. */
export function toComplianceCheckRunDto(
  run: ComplianceCheckEntity,
  result: ComplianceReportDto | null,
): ComplianceCheckRunDto {
  return {
    id: run.id,
    connection_id: run.connectionId,
    backup_id: run.backupId,
    framework: run.framework,
    ...trackedRunFields(run),
    result,
  };
}

/** A check queued as a job: poll `/api/compliance/checks/{checkId}` (docs/decisions.md). */
export interface ComplianceCheckQueued {
  checkId: string;
  status: 'pending';
}

/** Beyond the spec: a check queued as a job (`Prefer: respond-async`); poll GET /api/compliance/checks/{checkId}. */
@ApiSchema({ name: 'ComplianceCheckQueued' })
export class ComplianceCheckQueuedDto implements ComplianceCheckQueued {
  @ApiProperty({ format: 'uuid', example: '6f1c0a8d-2f3e-4b4e-9f51-0d6c2a8e5a5b' }) checkId!: string;
  @ApiProperty({ enum: ['pending'] }) status!: 'pending';
}
