import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import { ResourceTypesFilter } from '@app/common/resource-types-filter.decorator.js';

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

  @ResourceTypesFilter('Resource types or categories to compare; default: every type both backups hold.')
  resourceTypes?: string[];
}
