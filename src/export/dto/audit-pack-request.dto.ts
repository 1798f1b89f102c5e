import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsISO8601, IsOptional, IsUUID } from 'class-validator';

/** Most connections one pack names (far above any team's; bounds the request). */
export const MAX_PACK_CONNECTIONS = 1_000;

/** Body of POST /api/export/audit-pack (spec "Export"). */
export class AuditPackRequestDto {
  @ApiProperty({ format: 'date-time', description: 'Start of the period, included.' })
  @IsISO8601({ strict: true }, { message: 'from must be an ISO 8601 timestamp' })
  from!: string;

  @ApiProperty({ format: 'date-time', description: 'End of the period, included; not before `from`.' })
  @IsISO8601({ strict: true }, { message: 'to must be an ISO 8601 timestamp' })
  to!: string;

  @ApiPropertyOptional({
    type: [String],
    format: 'uuid',
    maxItems: MAX_PACK_CONNECTIONS,
    description: 'The connections the pack covers; default every connection of the team.',
  })
  @IsOptional()
  @IsArray({ message: 'connectionIds must be an array of uuids' })
  @ArrayMaxSize(MAX_PACK_CONNECTIONS)
  @IsUUID(undefined, { each: true, message: 'connectionIds must be an array of uuids' })
  connectionIds?: string[];
}
