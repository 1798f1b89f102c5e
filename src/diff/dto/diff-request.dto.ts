import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsOptional, IsString, IsUUID } from 'class-validator';
import { csv } from '../../common/csv.transform.js';

/**
 * Body of POST /api/diff and query of GET /api/diff (spec "Diff"). In the query string,
 * `resourceTypes` is comma-separated or repeated.
 */
export class DiffRequestDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  fromBackupId!: string;

  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  toBackupId!: string;

  @ApiPropertyOptional({
    type: [String],
    description: 'Resource types or categories to compare (docs/resource-types.md); default: all both hold.',
  })
  @IsOptional()
  @Transform(csv)
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  resourceTypes?: string[];
}
