import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsOptional, IsString, MaxLength } from 'class-validator';
import type { AttributionFilter } from '@libs/diff/change-attribution.js';

/**
 * Filters of a diff, a timeline or an undo by who made a change and when (docs/diff.md "Who
 * changed it"): a change passes when the provider's audit log names `actor` as having made it,
 * in `[since, until]`. A change the log holds no record of passes no filter.
 */
export class AttributionFilterDto implements AttributionFilter {
  @ApiPropertyOptional({
    maxLength: 256,
    example: '00u1a2b3c4d5e6f7g8h9',
    description:
      "Only changes this actor made: the id the provider's audit log gives (`changedBy.id`: Okta, a user id or a service app's client id).",
  })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  actor?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Only changes made at or after this instant (ISO 8601), as the audit log dates them.',
  })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'since must be an ISO 8601 timestamp' })
  since?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Only changes made at or before this instant (ISO 8601).',
  })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'until must be an ISO 8601 timestamp' })
  until?: string;
}
