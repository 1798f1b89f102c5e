import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { PageLimit, PageOffset, QueryBoolean } from '@app/common/query-params.decorator.js';
import type { RestoreStatus } from '@app/restore/restore.entity.js';

/** Largest page of restores or of a restore's items. */
export const MAX_RESTORE_PAGE = 1000;

/** Query of GET /api/restore/history. */
export class RestoreHistoryQuery {
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  connectionId?: string;

  @ApiPropertyOptional({ enum: ['pending', 'running', 'completed', 'partial', 'failed'] })
  @IsOptional()
  @IsIn(['pending', 'running', 'completed', 'partial', 'failed'])
  status?: RestoreStatus;

  @PageLimit(100, MAX_RESTORE_PAGE)
  limit: number = 100;

  @PageOffset()
  offset: number = 0;
}

/** Query of GET /api/restore/[restoreId]: which page of its items. */
export class RestoreItemsQuery {
  @PageLimit(100, MAX_RESTORE_PAGE)
  limit: number = 100;

  @PageOffset()
  offset: number = 0;

  @QueryBoolean('Only the items that failed.')
  failedOnly?: boolean;
}
