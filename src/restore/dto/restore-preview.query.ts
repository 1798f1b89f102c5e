import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import { ResourceTypesFilter } from '../../common/resource-types-filter.decorator.js';

/** Query of GET /api/restore (spec "Restore"): the dry-run preview. */
export class RestorePreviewQuery {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  backupId!: string;

  @ResourceTypesFilter('Resource types or categories to preview; default: every type the backup holds.')
  resourceTypes?: string[];
}
