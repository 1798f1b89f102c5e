import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { csv } from '@app/common/csv.transform.js';
import { ResourceTypesFilter } from '@app/common/resource-types-filter.decorator.js';
import { MAX_RESTORE_IDS } from './run-restore.dto.js';

/** Query of GET /api/restore (spec "Restore"): the dry-run preview. */
export class RestorePreviewQuery {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  backupId!: string;

  @ResourceTypesFilter('Resource types or categories to preview; default: every type the backup holds.')
  resourceTypes?: string[];

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', maxLength: 512 },
    maxItems: MAX_RESTORE_IDS,
    description: 'csv; beyond the spec: preview a selective restore of these record ids.',
  })
  @IsOptional()
  @Transform(csv)
  @IsArray()
  @ArrayMaxSize(MAX_RESTORE_IDS)
  @IsString({ each: true })
  @MaxLength(512, { each: true })
  resourceIds?: string[];

  @ApiPropertyOptional({
    format: 'uuid',
    description:
      'Beyond the spec: preview a restore into this connection (another org of the same kind); a mapping is given with POST /api/restore without `mode`.',
  })
  @IsOptional()
  @IsUUID()
  targetConnectionId?: string;
}
