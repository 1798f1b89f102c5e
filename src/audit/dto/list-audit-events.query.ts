import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import { PageLimit, QueryTimestamp } from '@app/common/query-params.decorator.js';

/** Largest page of GET /api/audit-events. */
export const MAX_AUDIT_PAGE = 500;

/**
 * Query of GET /api/audit-events (docs/notifications.md): filters, and a keyset cursor on (occurred_at, id).
 */
export class ListAuditEventsQuery {
  @QueryTimestamp('ISO 8601; events at or after.')
  from?: Date;

  @QueryTimestamp('ISO 8601; events before.')
  to?: Date;

  @ApiPropertyOptional({
    pattern: '^[a-z_]+(\\.[a-z_]+)+$',
    maxLength: 100,
    example: 'backup.failed',
    description: 'A dotted action.',
  })
  @IsOptional()
  @Matches(/^[a-z_]+(\.[a-z_]+)+$/, { message: 'action must be a dotted verb such as backup.failed' })
  @MaxLength(100)
  action?: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'The acting user (for a client: the member it acts for).',
  })
  @IsOptional()
  @IsUUID()
  actorId?: string;

  @ApiPropertyOptional({ maxLength: 200, description: 'Id of the object acted on.' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  targetId?: string;

  @PageLimit(50, MAX_AUDIT_PAGE)
  limit: number = 50;

  @ApiPropertyOptional({ maxLength: 200, description: '`nextAfter` of the previous page.' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  after?: string;
}
