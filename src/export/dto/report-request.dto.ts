import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDate, IsIn, IsOptional, IsUUID, ValidateIf } from 'class-validator';
import { FRAMEWORK_IDS, type FrameworkId } from '@libs/compliance/frameworks/framework-types.js';

export const REPORT_TYPES = ['backup', 'compliance', 'activity'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

/** Body of POST /api/export/report (spec "Export"): each type names the fields it needs. */
export class ReportRequestDto {
  @ApiProperty({ enum: REPORT_TYPES })
  @IsIn(REPORT_TYPES, { message: `type must be one of: ${REPORT_TYPES.join(', ')}` })
  type!: ReportType;

  @ApiPropertyOptional({ format: 'uuid', description: 'Required when type is `backup`.' })
  @ValidateIf((body: ReportRequestDto) => body.type === 'backup')
  @IsUUID(undefined, { message: 'backupId must be a uuid (required when type is backup)' })
  backupId?: string;

  @ApiPropertyOptional({ enum: FRAMEWORK_IDS, description: 'Required when type is `compliance`.' })
  @ValidateIf((body: ReportRequestDto) => body.type === 'compliance')
  @IsIn(FRAMEWORK_IDS, {
    message: `framework must be one of: ${FRAMEWORK_IDS.join(', ')} (required when type is compliance)`,
  })
  framework?: FrameworkId;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'With `compliance`: one connection (default: every connection of the team).',
  })
  @IsOptional()
  @IsUUID(undefined, { message: 'connectionId must be a uuid' })
  connectionId?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Required when type is `activity`.' })
  @ValidateIf((body: ReportRequestDto) => body.type === 'activity')
  @Type(() => Date)
  @IsDate({ message: 'from must be an ISO 8601 timestamp (required when type is activity)' })
  from?: Date;

  @ApiPropertyOptional({ format: 'date-time', description: 'Required when type is `activity`.' })
  @ValidateIf((body: ReportRequestDto) => body.type === 'activity')
  @Type(() => Date)
  @IsDate({ message: 'to must be an ISO 8601 timestamp (required when type is activity)' })
  to?: Date;
}
