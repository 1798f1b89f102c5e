import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsOptional, IsString, IsUUID } from 'class-validator';

/** Body of POST /api/backup/run (spec "Backups"). */
export class RunBackupDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  connectionId!: string;

  @ApiPropertyOptional({
    type: [String],
    maxItems: 100,
    description: 'Resource types to capture; omit for a full snapshot.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  include?: string[];

  @ApiPropertyOptional({
    description:
      "Okta kind only: the backup also captures the org's Okta Workflows, through the team's `okta_workflows` connection to the same org (400 `workflows_not_applicable` on another kind, `no_workflows_connection` without one; docs/okta-workflows.md).",
  })
  @IsOptional()
  @IsBoolean()
  includeWorkflows?: boolean;

  @ApiPropertyOptional({ description: 'Skips incremental logic.' })
  @IsOptional()
  @IsBoolean()
  forceFullBackup?: boolean;
}
