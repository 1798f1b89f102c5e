import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsOptional, IsString, IsUUID } from 'class-validator';
import { csv } from '../../common/csv.transform.js';

/** Query of GET /api/restore (spec "Restore"): the dry-run preview. */
export class RestorePreviewQuery {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  backupId!: string;

  @ApiPropertyOptional({ description: 'csv of resource types or categories (docs/resource-types.md).' })
  @IsOptional()
  @Transform(csv)
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  resourceTypes?: string[];
}
