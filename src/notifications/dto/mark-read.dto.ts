import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, Equals, IsArray, IsOptional, IsUUID } from 'class-validator';

/** Most ids one POST /api/notifications/read marks. */
export const MAX_MARK_READ_IDS = 500;

/** Body of POST /api/notifications/read (DESIGN section 4): `ids`, or `all: true`, not both. */
export class MarkReadDto {
  @ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: MAX_MARK_READ_IDS })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_MARK_READ_IDS)
  @IsUUID('all', { each: true })
  ids?: string[];

  @ApiPropertyOptional({ enum: [true] })
  @IsOptional()
  @Equals(true, { message: 'all must be true when given' })
  all?: true;
}
