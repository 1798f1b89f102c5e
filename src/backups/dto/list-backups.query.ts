import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsArray, IsIn, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { csv } from '@app/common/csv.transform.js';
import {
  PageLimit,
  PageOffset,
  QueryBoolean,
  QueryInteger,
  QueryTimestamp,
} from '@app/common/query-params.decorator.js';

/** Largest page of GET /api/backup/list; a larger `limit` is a 400, not a silent clamp. */
export const MAX_BACKUP_PAGE = 1000;

/** Query of GET /api/backup/list (spec "Backups"); csv parameters arrive as arrays. */
export class ListBackupsQuery {
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  connectionId?: string;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', format: 'uuid' },
    description: 'csv of uuid',
  })
  @IsOptional()
  @Transform(csv)
  @IsArray()
  @IsUUID('all', { each: true })
  connectionIds?: string[];

  @ApiPropertyOptional({ enum: ['running', 'completed', 'failed'] })
  @IsOptional()
  @IsIn(['running', 'completed', 'failed'])
  status?: 'running' | 'completed' | 'failed';

  @ApiPropertyOptional({
    maxLength: 200,
    description: 'Free text over connection name, error, resource types.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;

  @QueryTimestamp('ISO 8601; backups started at or after.')
  from?: Date;

  @QueryTimestamp('ISO 8601; backups started at or before.')
  to?: Date;

  @ApiPropertyOptional({ description: 'csv; backups holding any of these types.' })
  @IsOptional()
  @Transform(csv)
  @IsArray()
  @IsString({ each: true })
  resourceTypes?: string[];

  @QueryInteger({ min: 0, description: 'bytes' })
  minSize?: number;

  @QueryInteger({ min: 0, description: 'bytes' })
  maxSize?: number;

  @PageLimit(100, MAX_BACKUP_PAGE)
  limit: number = 100;

  @PageOffset()
  offset: number = 0;

  @QueryBoolean()
  includeStats?: boolean;
}
