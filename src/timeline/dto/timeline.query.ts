import { ApiProperty } from '@nestjs/swagger';
import { IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import { PageLimit } from '@app/common/query-params.decorator.js';
import { AttributionFilterDto } from '@app/attribution/dto/attribution-filter.dto.js';

/** Most backups one timeline walks; a larger `limit` is a 400, not a silent clamp. */
export const MAX_TIMELINE_BACKUPS = 100;

/**
 * Query of GET /api/resource-timeline (spec "Resource timeline"); beyond the spec, `actor`,
 * `since` and `until` keep the events an actor's changes made in a window.
 */
export class TimelineQuery extends AttributionFilterDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  connectionId!: string;

  @ApiProperty({
    pattern: '^[a-z][a-z0-9_]{0,63}$',
    example: 'group',
    description: 'Singular snake_case resource type (docs/resource-types.md).',
  })
  @IsString()
  @Matches(/^[a-z][a-z0-9_]{0,63}$/, { message: 'resourceType must be a snake_case resource type' })
  resourceType!: string;

  @ApiProperty({
    maxLength: 512,
    description: "The resource's id as stored (composite ids for child records).",
  })
  @IsString()
  @MaxLength(512)
  resourceId!: string;

  @PageLimit(20, MAX_TIMELINE_BACKUPS)
  limit: number = 20;
}
