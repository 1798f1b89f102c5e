import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import { ResourceTypesFilter } from '@app/common/resource-types-filter.decorator.js';
import { AttributionFilterDto } from '@app/attribution/dto/attribution-filter.dto.js';

/**
 * Body of POST /api/diff and query of GET /api/diff (spec "Diff"). In the query string,
 * `resourceTypes` is comma-separated or repeated. Beyond the spec: `actor`, `since` and `until`
 * keep the changes an actor made in a window (AttributionFilterDto).
 */
export class DiffRequestDto extends AttributionFilterDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  fromBackupId!: string;

  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  toBackupId!: string;

  @ResourceTypesFilter('Resource types or categories to compare; default: every type both backups hold.')
  resourceTypes?: string[];
}
